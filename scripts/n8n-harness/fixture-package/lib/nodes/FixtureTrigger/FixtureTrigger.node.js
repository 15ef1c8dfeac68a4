'use strict';
// Polling trigger with the contract the real one follows: a manual run returns a sample;
// the first real poll only records where the feed stands (returns null); later polls
// return what is new. State lives in getWorkflowStaticData('node').
class FixtureTrigger {
  constructor() {
    this.description = {
      displayName: 'Fixture Trigger',
      name: 'fixtureTrigger',
      group: ['trigger'],
      version: 1,
      description: 'Test-only polling trigger',
      defaults: { name: 'Fixture Trigger' },
      polling: true,
      inputs: [],
      outputs: ['main'],
      // failWith: make real polls throw (from poll number failFromPoll on), to see how n8n
      // reports a failing poll at activation and on a later cron tick.
      properties: [
        { displayName: 'Fail With', name: 'failWith', type: 'string', default: '' },
        { displayName: 'Fail From Poll', name: 'failFromPoll', type: 'number', default: 1 },
      ],
    };
  }
  async poll() {
    const state = this.getWorkflowStaticData('node');
    if (this.getMode() === 'manual') return [[{ json: { sample: true } }]];
    state.polls = (state.polls || 0) + 1;
    const failWith = this.getNodeParameter('failWith', '');
    if (failWith && state.polls >= this.getNodeParameter('failFromPoll', 1)) throw new Error(failWith);
    if (state.polls === 1) return null;
    return [[{ json: { poll: state.polls, mode: this.getMode(), activation: this.getActivationMode() } }]];
  }
}
module.exports = { FixtureTrigger };
