'use strict';
// Action node: GET baseUrl+path with the credential's header, one request per item.
class FixtureHttp {
  constructor() {
    this.description = {
      displayName: 'Fixture HTTP',
      name: 'fixtureHttp',
      group: ['transform'],
      version: 1,
      description: 'Test-only node',
      defaults: { name: 'Fixture HTTP' },
      inputs: ['main'],
      outputs: ['main'],
      credentials: [{ name: 'fixtureApi', required: true }],
      properties: [{ displayName: 'Path', name: 'path', type: 'string', default: '/echo' }],
    };
  }
  async execute() {
    const items = this.getInputData();
    const { baseUrl } = await this.getCredentials('fixtureApi');
    const out = [];
    for (let i = 0; i < items.length; i++) {
      const path = this.getNodeParameter('path', i);
      const body = await this.helpers.httpRequestWithAuthentication.call(this, 'fixtureApi', {
        method: 'GET',
        url: baseUrl + path,
        json: true,
      });
      out.push({ json: body, pairedItem: { item: i } });
    }
    return [out];
  }
}
module.exports = { FixtureHttp };
