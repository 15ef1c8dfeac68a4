/**
 * The `/_sandbox/...` routes: what the Sandbox handle does in-process (keys, stats, faults,
 * publishing and deleting posts, adding accounts, stepping an account's numbers), for clients in another process. Never counted or billed.
 */
import type * as http from 'node:http';
import { parseFaults } from './faults';
import { send } from './http';
import { readBody } from '../lib/gate';
import { fixtures } from './fixtures';
import type { Runtime } from './runtime';
import type { StepMeasure } from './world/steps';

export async function serveAdmin(rt: Runtime, req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
  const { billing } = rt;
  const json = (status: number, body: unknown) => send(res, status, JSON.stringify(body));
  const bad = (message: string) => json(400, { error: { code: 'bad_request', message } });
  const path = url.pathname.replace(/\/+$/, '');
  const m = req.method ?? 'GET';
  try {
    if (path === '/_sandbox/stats' && m === 'GET') return json(200, rt.stats.snapshot());
    if (path === '/_sandbox/reset' && m === 'POST') {
      rt.stats.reset();
      return json(200, { ok: true });
    }
    if (path === '/_sandbox/keys' && m === 'POST') {
      const b = url.searchParams.get('balance');
      const balance = b === null || b === '' ? undefined : Number(b);
      const key = billing.createKey(balance);
      return json(200, { key, balance: billing.balance(key) });
    }
    let k = /^\/_sandbox\/keys\/([^/]+)$/.exec(path);
    if (k && m === 'GET') {
      const key = decodeURIComponent(k[1]);
      return billing.knows(key)
        ? json(200, { key, balance: billing.balance(key) })
        : json(404, { error: { code: 'not_found', message: 'Unknown key' } });
    }
    if (path === '/_sandbox/faults') {
      if (m === 'GET') return json(200, rt.faults);
      if (m === 'POST') {
        const text = await readBody(req);
        let body: Record<string, unknown> = {};
        try {
          body = text.trim() ? JSON.parse(text) : {};
        } catch {
          return bad(
            'The body must be JSON: {latencyMs, faultRate, faultStatus, slowMs, mediaTtlSeconds, rateLimitInFlight, rateLimitPerSecond, retryAfterSeconds}',
          );
        }
        for (const [name, v] of url.searchParams) body[name] = v;
        rt.faults = parseFaults(body, rt.faults);
        return json(200, rt.faults);
      }
    }
    k = /^\/_sandbox\/hashtag\/([^/]+)\/publish$/.exec(path);
    if (k && m === 'POST') {
      const count = Number(url.searchParams.get('count') ?? '1');
      const tag = decodeURIComponent(k[1]).replace(/^#/, '').toLowerCase();
      return json(200, {
        tag,
        published: rt.overlay.addPosts(tag, count, url.searchParams.get('caption') ?? undefined),
      });
    }
    k = /^\/_sandbox\/profile\/([^/]+)\/pin$/.exec(path);
    if (k && m === 'POST') {
      const handle = decodeURIComponent(k[1]);
      return json(200, { handle, pinned: rt.overlay.pinPosts(handle, Number(url.searchParams.get('count') ?? '1')) });
    }
    k = /^\/_sandbox\/profile\/([^/]+)\/step$/.exec(path);
    if (k && m === 'POST') {
      const handle = decodeURIComponent(k[1]);
      const q = (name: string) => url.searchParams.get(name);
      const change = Number(q('change') ?? NaN);
      const to = q('at');
      const at = to === null ? undefined : Date.parse(to);
      if (at !== undefined && !Number.isFinite(at))
        return bad(`at must be an ISO 8601 instant, like 2026-11-25T10:00:00Z; got "${to}"`);
      const steps = rt.moving.step(handle, (q('measure') ?? '') as StepMeasure, change, at);
      return json(200, { handle, steps: steps.map((st) => ({ ...st, at: new Date(st.at).toISOString() })) });
    }
    k = /^\/_sandbox\/post\/([^/]+)\/delete$/.exec(path);
    if (k && m === 'POST') {
      const ref = decodeURIComponent(k[1]);
      return rt.overlay.deletePost(ref)
        ? json(200, { deleted: ref })
        : json(404, { error: { code: 'not_found', message: `No live post "${ref}"` } });
    }
    if (path === '/_sandbox/clock') {
      if (m === 'POST') {
        // to=<instant> is idempotent (a client may send it twice); the clock never goes back.
        const to = url.searchParams.get('to');
        if (to !== null) {
          const at = Date.parse(to);
          if (!Number.isFinite(at))
            return bad(`to must be an ISO 8601 instant, like 2026-11-25T10:00:00Z; got "${to}"`);
          rt.clock.moveTo(at);
        } else {
          const ms = Number(url.searchParams.get('advance') ?? NaN);
          if (!(Number.isFinite(ms) && ms >= 0))
            return bad(
              'Give advance=<ms> (how far to move the sandbox clock forward, 0 or more) or to=<ISO 8601 instant>.',
            );
          rt.clock.advance(ms);
        }
      }
      const iso = (ms: number) => new Date(ms).toISOString();
      if (m === 'POST' || m === 'GET')
        return json(200, { now: iso(rt.clock.now()), world: iso(rt.clock.worldNow()), startedAt: iso(rt.startedAt) });
    }
    if (path === '/_sandbox/accounts' && m === 'POST') {
      const text = await readBody(req);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text);
      } catch {
        return bad('The body must be JSON: {username, full_name?, biography?, id?, ..., omit?}');
      }
      return json(200, rt.overlay.addAccount(body));
    }
    if (path === '/_sandbox/fixtures' && m === 'GET') return json(200, fixtures(rt.world));
    return json(404, { error: { code: 'not_found', message: `No admin route ${m} ${path}` } });
  } catch (e) {
    return bad((e as Error).message);
  }
}
