/**
 * The Zapier integration's definition: the connection, the key added to every request, every
 * registry endpoint as a search (or, when the service's AI makes its answer, a create), and new
 * posts as polling triggers. Built into zapier/dist by
 * scripts/build/zapier.mjs (core bundled in; zapier-platform-core is the one runtime dependency).
 */
import { version as platformVersion } from 'zapier-platform-core';
import { addKey, authentication } from './auth';
import { creates } from './creates';
import { searches } from './searches';
import { triggers } from './triggers';

export default {
  version: '0.1.0',
  platformVersion,
  authentication,
  beforeRequest: [addKey],
  // Every request goes through z.request, which Zapier logs (scrubbed) itself. Its http patch wraps
  // Node's http, https and fetch for the whole process, and the wrapper takes request(options,
  // callback) only: in a process shared with other code (jest's worker) a later
  // http.request(url, options, callback) loses its options (n8n media tests hung on it).
  flags: { skipHttpPatch: true },
  triggers,
  searches,
  creates,
};
