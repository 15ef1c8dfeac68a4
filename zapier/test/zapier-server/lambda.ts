/**
 * The built integration run as Zapier's servers run it: zapier-platform-core's lambda handler
 * (`createAppHandler`, what Zapier's zapierwrapper.js exports as the Lambda's handler) given an
 * event `{command: 'execute', method: 'triggers.<key>.operation.perform', bundle, token, rpc_base}`,
 * its z.cache and logs going to the test's Zapier server (rpc.ts). A connection is Zapier's:
 * an identity that stays while the user edits its fields (authData).
 */
import path from 'node:path';
import { ROOT, requireBuilt } from '../../../test/support/built';
import type { ZapierServer } from './rpc';

export interface Connection {
  id: string;
  user: string;
  authData: { apiKey: string; baseUrl: string };
}

type Handler = (event: unknown) => Promise<{ results: unknown }>;

export type Run = (method: string, connection: Connection, bundle?: Record<string, unknown>) => Promise<any>;

/** A runner of steps through the handler, its RPC and logs at `server`. */
export function lambda(server: ZapierServer): { run: Run; restore: () => void } {
  requireBuilt('zapier/dist/index.js');
  // What Zapier's zapierwrapper.js calls (exported by core's index.js, left out of its types).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const core = require('zapier-platform-core') as { createAppHandler(path: string): Handler };
  const handler = core.createAppHandler(path.join(ROOT, 'zapier', 'dist', 'index.js'));
  // Where the handler streams its log lines (zapier-platform-core reads it at each run).
  const before = process.env.LOGGING_ENDPOINT;
  process.env.LOGGING_ENDPOINT = server.logUrl;
  const run: Run = async (method, connection, bundle = {}) => {
    const event = {
      command: 'execute',
      method,
      bundle: { ...bundle, authData: { ...connection.authData } },
      token: server.tokenFor({ connection: connection.id, user: connection.user }),
      rpc_base: server.rpcUrl,
    };
    return (await handler(event)).results;
  };
  const restore = () => {
    if (before === undefined) delete process.env.LOGGING_ENDPOINT;
    else process.env.LOGGING_ENDPOINT = before;
  };
  return { run, restore };
}
