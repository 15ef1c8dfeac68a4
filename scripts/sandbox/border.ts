/**
 * The sandbox's rules at its border (scripts/lib/gate.ts, which decides what crosses): which
 * routes take a body and how much, the MCP route closed to pages of other sites whatever the
 * method (the MCP specification, Streamable HTTP, "Security Warning": "Servers MUST validate the
 * Origin header on all incoming connections to prevent DNS rebinding attacks"; "If the Origin
 * header is present and invalid, servers MUST respond with HTTP 403 Forbidden. The HTTP response
 * body MAY comprise a JSON-RPC error response that has no id"), and refusals in the sandbox's
 * error shape (JSON-RPC on the MCP route).
 */
import type { Rules } from '../lib/gate';
import { MCP_PATH } from './mcp/serve';

/** The admin routes that read a JSON body (admin.ts), and the most they take. */
const ADMIN_BODIES = new Set(['/_sandbox/faults', '/_sandbox/accounts']);
export const ADMIN_BODY_LIMIT = 100_000;
/** A JSON-RPC message to the MCP route: a tool call's arguments are a few hundred bytes. */
export const MCP_BODY_LIMIT = 1_000_000;

export const sandboxRules: Rules = {
  bodyLimit(method, path) {
    if (method !== 'POST') return 0;
    if (path === MCP_PATH) return MCP_BODY_LIMIT;
    return ADMIN_BODIES.has(path.replace(/\/+$/, '')) ? ADMIN_BODY_LIMIT : 0;
  },
  crossSiteRefused: (_method, path) => path === MCP_PATH,
  refusal(path, _status, code, message) {
    const body =
      path === MCP_PATH ? { jsonrpc: '2.0', error: { code: -32000, message } } : { error: { code, message } };
    return { type: 'application/json; charset=utf-8', body: JSON.stringify(body) };
  },
};
