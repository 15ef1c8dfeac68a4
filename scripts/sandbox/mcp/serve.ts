/**
 * The MCP server at /mcp (§5 item 5): Streamable HTTP through the official SDK, stateless (a
 * server and transport per HTTP request, as the SDK's stateless examples do), JSON answers. A tool
 * call is a call of its endpoint through the same pipeline as the REST route (callApi): the same
 * key (Bearer or x-api-key on the HTTP request), validation, balance, faults, billing and stats.
 * Listing tools needs no key, like /openapi.json; a call without a valid key is a tool error
 * with code invalid_api_key, not billed.
 */
import type * as http from 'node:http';
import { closest } from '@igdata/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { callApi } from '../pipeline';
import { keyOf, originOf } from '../http';
import { readBody } from '../../lib/gate';
import type { Route } from '../routes';
import type { Runtime } from '../runtime';
import type { AbortSignalLike } from '../timers';
import { allTools, toolName } from './tools';

export const MCP_PATH = '/mcp';

const INSTRUCTIONS =
  'IG Data (sandbox): public Instagram data and insights. Each tool is one endpoint of the REST API ' +
  '(GET /v1/<path>, the tool name with slashes for underscores), billed in credits exactly like it; a ' +
  'result is the API envelope {data, meta} with meta.credits_remaining. Lists page with cursor = the ' +
  'previous data.next_cursor. An error result carries the API error code in structuredContent.error.code.';

// No `Access-Control-Allow-Origin: *`: the gate (scripts/sandbox/border.ts) refuses pages of other
// sites on this route, and a page of this machine that gets past it is named back (corsOf).
const CORS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'authorization, x-api-key, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'mcp-protocol-version, mcp-session-id',
};

/** CORS for a request the gate let through: its Origin, if it sent one, is one of this machine's pages. */
function corsOf(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin ? { ...CORS, 'access-control-allow-origin': origin, vary: 'origin' } : { ...CORS, vary: 'origin' };
}

function refuse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code: number = ErrorCode.ConnectionClosed,
) {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, {
    ...corsOf(req),
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

export function createMcpHandler(rt: Runtime, routes: Map<string, Route>, baseUrl: () => string) {
  const byTool = new Map<string, Route>();
  for (const route of routes.values()) byTool.set(toolName(route.endpoint), route);
  const names = [...byTool.keys()];

  async function callTool(
    req: http.IncomingMessage,
    aborted: AbortSignalLike,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const route = byTool.get(name);
    if (!route) {
      const near = closest(name, names);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${name}".${near ? ` Did you mean "${near}"?` : ''} tools/list lists the ${names.length} tools.`,
      );
    }
    rt.stats.countMcpCall();
    let out;
    try {
      out = await callApi(rt, route, {
        key: keyOf(req),
        input: args,
        headers: req.headers,
        origin: originOf(req, baseUrl()),
        aborted,
      });
    } catch (e) {
      if (!rt.quiet) console.error(e);
      const body = {
        error: {
          code: 'internal_error',
          message: String((e as Error)?.message ?? e),
          docs: '/docs/errors#internal_error',
        },
        meta: {},
      };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    }
    if (!out) return { isError: true, content: [{ type: 'text', text: 'The client went away.' }] };
    // The envelope exactly as the REST route answers it, as text and as structured content.
    return {
      isError: out.status !== 200,
      content: [{ type: 'text', text: out.body }],
      structuredContent: JSON.parse(out.body),
    };
  }

  return async function serveMcp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, corsOf(req));
      return void res.end();
    }
    // Stateless: no session to resume or end, and no server-initiated messages to stream.
    if (req.method !== 'POST')
      return refuse(req, res, 405, 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST.', {
        allow: 'POST, OPTIONS',
      });
    // The body is read here, within the route's limit (the gate's readBody), and handed to the SDK parsed.
    const text = await readBody(req).catch(() => undefined);
    if (text === undefined) return; // refused at the limit: answered and closed by the gate
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return refuse(req, res, 400, 'Parse error: Invalid JSON', {}, ErrorCode.ParseError);
    }
    const aborted: AbortSignalLike = { aborted: false, onAbort: undefined };
    const server = new Server(
      { name: 'igdata-sandbox', title: 'IG Data sandbox', version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: allTools() }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      callTool(req, aborted, request.params.name, request.params.arguments ?? {}),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      aborted.aborted = true;
      aborted.onAbort?.();
      void transport.close();
      void server.close();
    });
    for (const [name, value] of Object.entries(corsOf(req))) res.setHeader(name, value);
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };
}
