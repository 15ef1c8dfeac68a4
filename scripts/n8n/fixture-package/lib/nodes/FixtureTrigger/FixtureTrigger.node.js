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
      // failWith: make every real poll throw, to see how n8n reports a failing poll.
      properties: [{ displayName: 'Fail With', name: 'failWith', type: 'string', default: '' }],
    };
  }
  async poll() {
    const state = this.getWorkflowStaticData('node');
    if (this.getMode() === 'manual') return [[{ json: { sample: true } }]];
    const failWith = this.getNodeParameter('failWith', '');
    if (failWith) throw new Error(failWith);
    state.polls = (state.polls || 0) + 1;
    if (state.polls === 1) return null;
    return [[{ json: { poll: state.polls, mode: this.getMode(), activation: this.getActivationMode() } }]];
  }
}
module.exports = { FixtureTrigger };
