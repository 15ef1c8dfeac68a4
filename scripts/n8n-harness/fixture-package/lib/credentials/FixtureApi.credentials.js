'use strict';
// Same shape as the real credential will have: generic header auth + a test request.
class FixtureApi {
  constructor() {
    this.name = 'fixtureApi';
    this.displayName = 'Fixture API';
    this.properties = [
      { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://127.0.0.1' },
      { displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
    ];
    this.authenticate = { type: 'generic', properties: { headers: { 'x-api-key': '={{$credentials.apiKey}}' } } };
    this.test = { request: { baseURL: '={{$credentials.baseUrl}}', url: '/whoami' } };
  }
}
module.exports = { FixtureApi };
