/**
 * The sandbox: a local implementation of the whole API of the service's specification,
 * ../shared/spec/service-api.md (§N in the sandbox's comments is a section of it), over a seeded
 * synthetic world. Routes, MCP tools (/mcp), parameter validation, billing and /openapi.json all
 * come from core's registry (`endpoints`); handlers.ts only says how each endpoint reads the world.
 * Media links in answers point back here (/media/...).
 *
 * Importable and side-effect free: nothing starts until startSandbox() is called (see cli.ts).
 * This file wires the parts together and is the library's entry point (dist/sandbox-lib.mjs), so
 * everything importers use is exported from here.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_DOCS_PATH, buildOpenApi, endpoints } from '@igdata/core';
import { getWorld } from './world/build';
import { Billing } from './billing';
import { type FaultConfig, FaultDice, faultsFromEnv, parseFaults } from './faults';
import { createHandlers } from './handlers';
import { docsRoutes, routesFor } from './routes';
import { Overlay } from './overlay';
import { SandboxClock } from './clock';
import { MovingWorld } from './world/moving';
import { Stats } from './stats';
import { Timers } from './timers';
import { RateLimit } from './rate-limit';
import { requestIds, send } from './http';
import { serveApi } from './pipeline';
import { serveAdmin } from './admin';
import { MediaLinks, MEDIA_PREFIX } from './media/links';
import { serveMedia } from './media/serve';
import { createMcpHandler, MCP_PATH } from './mcp/serve';
import { guard } from '../lib/gate';
import { LISTEN_ENV, listenOf, listenWarning } from '../lib/listen';
import { sandboxRules } from './border';
import type { Runtime } from './runtime';
import type { Sandbox, SandboxOptions } from './types';

export type { PublishedPost, Sandbox, SandboxOptions, SandboxStats } from './types';
export { PAGE_SIZE } from './paging';
export { fixtures } from './fixtures';

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const env = opts.env ?? process.env;
  const seed = opts.seed ?? (env.SANDBOX_SEED ? Number(env.SANDBOX_SEED) : 42);
  if (!Number.isInteger(seed)) throw new Error(`seed must be a whole number; got ${seed}`);
  const quiet = opts.quiet ?? true;
  const world = getWorld(seed);
  const billing = new Billing(seed, opts.demoKey ?? env.SANDBOX_DEMO_KEY);
  let faults = parseFaults({ ...faultsFromEnv(env) });
  faults = parseFaults(
    {
      latencyMs: opts.latencyMs,
      faultRate: opts.faultRate,
      faultStatus: opts.faultStatus,
      slowMs: opts.slowMs,
      mediaTtlSeconds: opts.mediaTtlSeconds,
      rateLimitInFlight: opts.rateLimitInFlight,
      rateLimitPerSecond: opts.rateLimitPerSecond,
      retryAfterSeconds: opts.retryAfterSeconds,
    },
    faults,
  );
  const clock = new SandboxClock(opts.startAt, env);
  const { startedAt } = clock;
  const moving = new MovingWorld(world, startedAt, () => clock.worldNow());
  const rt: Runtime = {
    seed,
    startedAt,
    clock,
    quiet,
    world,
    moving,
    overlay: new Overlay(world, seed, () => clock.now(), moving),
    billing,
    stats: new Stats(),
    dice: new FaultDice(seed),
    timers: new Timers(),
    rateLimit: new RateLimit(),
    nextRequestId: requestIds(seed, startedAt),
    media: new MediaLinks(`sandbox-media-${seed}`, startedAt),
    faults,
  };
  const routes = routesFor(createHandlers(rt));
  const docs = docsRoutes();
  const { stats } = rt;
  let baseUrl = '';
  let openapiJson: string | null = null;
  const serveMcp = createMcpHandler(rt, routes, () => baseUrl);

  const listen = listenOf(opts.listen ?? env[LISTEN_ENV]);
  const server = http.createServer();
  // Every request crosses the gate first (Host, Origin, body limits: scripts/lib/gate.ts).
  guard(server, listen, sandboxRules, (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox');
    } catch {
      return send(res, 400, JSON.stringify({ error: { code: 'bad_request', message: 'Bad URL' } }));
    }
    const path = url.pathname;
    if (path.startsWith('/_sandbox/')) {
      serveAdmin(rt, req, res, url).catch((e) =>
        send(res, 500, JSON.stringify({ error: { code: 'internal', message: String(e) } })),
      );
      return;
    }
    if (path.startsWith(`${MEDIA_PREFIX}/`)) return serveMedia(rt, req, res, url);
    if (path === MCP_PATH) {
      serveMcp(req, res).catch((e) => {
        if (!quiet) console.error(e);
        if (!res.headersSent)
          send(
            res,
            500,
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32603, message: String((e as Error)?.message ?? e) },
              id: null,
            }),
          );
      });
      return;
    }
    const docsPage = docs.get(path);
    if (docsPage && (req.method === 'GET' || req.method === 'HEAD'))
      return send(res, 200, docsPage(), { 'content-type': 'text/html; charset=utf-8' });
    if (path === '/openapi.json') {
      openapiJson ??= JSON.stringify(buildOpenApi(baseUrl));
      return send(res, 200, openapiJson, { 'access-control-allow-origin': '*' });
    }
    if (path === '/' || path === '/health') {
      return send(
        res,
        200,
        JSON.stringify({
          name: 'IG Data sandbox',
          seed,
          openapi: `${baseUrl}/openapi.json`,
          mcp: `${baseUrl}${MCP_PATH}`,
          endpoints: endpoints.length,
        }),
      );
    }
    const route = routes.get(path.length > 4 ? path.replace(/\/+$/, '') : path);
    if (!route) {
      stats.countRequest(undefined);
      stats.countStatus(404);
      const requestId = rt.nextRequestId();
      return send(
        res,
        404,
        JSON.stringify({
          error: {
            code: 'not_found',
            message: `No endpoint ${req.method} ${path}. The endpoints are listed at /openapi.json. (Not charged.)`,
            docs: '/docs/endpoints',
            reason: 'unknown_endpoint',
          },
          meta: { request_id: requestId, credits_charged: 0 },
        }),
        { 'x-request-id': requestId },
      );
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      stats.countRequest(route.endpoint.id);
      stats.countStatus(405);
      return send(
        res,
        405,
        JSON.stringify({
          error: {
            code: 'method_not_allowed',
            message: 'Every endpoint is GET.',
            docs: `${ERROR_DOCS_PATH}#method_not_allowed`,
          },
          meta: { request_id: rt.nextRequestId() },
        }),
        { allow: 'GET' },
      );
    }
    serveApi(rt, req, res, url, route, baseUrl).catch((e) => {
      if (!quiet) console.error(e);
      send(
        res,
        500,
        JSON.stringify({
          error: {
            code: 'internal_error',
            message: String((e as Error)?.message ?? e),
            docs: `${ERROR_DOCS_PATH}#internal_error`,
          },
          meta: {},
        }),
      );
    });
  });
  server.keepAliveTimeout = 5000;

  const host = listen.address;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const reachedAt = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  baseUrl = `http://${reachedAt.includes(':') ? `[${reachedAt}]` : reachedAt}:${port}`;
  if (!quiet) console.log(`sandbox listening on ${baseUrl} (seed ${seed})`);
  // Printed however quiet: the sandbox is then reachable from other machines.
  const warning = listenWarning(listen, 'the sandbox');
  if (warning) console.error(warning);

  return {
    url: baseUrl,
    address: host,
    mcpUrl: `${baseUrl}${MCP_PATH}`,
    port,
    demoKey: billing.demoKey,
    seed,
    startedAt,
    clock,
    world,
    close: () =>
      new Promise<void>((resolve) => {
        rt.timers.endAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    createKey: (balance?: number) => billing.createKey(balance),
    balance: (key: string) => billing.balance(key),
    setBalance: (key: string, balance: number) => billing.setBalance(key, balance),
    revokeKey: (key: string) => billing.revoke(key),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    addPosts: (tag: string, n: number, caption?: string) => rt.overlay.addPosts(tag, n, caption),
    deletePost: (ref: string) => rt.overlay.deletePost(ref),
    pinPosts: (handle: string, count: number) => rt.overlay.pinPosts(handle, count),
    step: ({ handle, measure, change, at }) =>
      moving.step(handle, measure, change, at === undefined ? undefined : typeof at === 'number' ? at : Date.parse(at)),
    faults: () => ({ ...rt.faults }),
    setFaults: (partial: Partial<FaultConfig>) =>
      (rt.faults = parseFaults(partial as Record<string, unknown>, rt.faults)),
  };
}
