/**
 * The Zapier integration's definition: the connection, the key added to every request, every
 * registry endpoint as a search, and new posts as polling triggers. Built into zapier/dist by
 * scripts/build/zapier.mjs (core bundled in; zapier-platform-core is the one runtime dependency).
 */
import { version as platformVersion } from 'zapier-platform-core';
import { addKey, authentication } from './auth';
import { searches } from './searches';
import { triggers } from './triggers';

export default {
  version: '0.1.0',
  platformVersion,
  authentication,
  beforeRequest: [addKey],
  triggers,
  searches,
};
