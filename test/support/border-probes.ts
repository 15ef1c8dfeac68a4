/**
 * Probes of a local server's border, over real HTTP: a body of any size streamed from a generator
 * (one 64 KB buffer sent again and again, so the test allocates nothing of it), announced by
 * Content-Length or sent in chunks; the server process's memory (RSS, from /proc) while it comes
 * in; the addresses a port listens on (/proc/net/tcp). Linux, as the tests run.
 */
import * as http from 'node:http';
import { readFileSync } from 'node:fs';

export interface Sent {
  /** The status the server answered with, if it answered. */
  status?: number;
  body: string;
  /** Bytes of body the client got to write before the server answered or closed. */
  sent: number;
  /** The connection's error, if it ended with one before an answer. */
  error?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);
function* body(total: number) {
  for (let n = 0; n < total; n += CHUNK.length) yield CHUNK.subarray(0, Math.min(CHUNK.length, total - n));
}

/**
 * Sends `total` bytes of body to `url` (method POST unless said), `announce`d by Content-Length or
 * chunked; `onMegabyte` runs after each MB written (to sample the server's memory). Resolves when
 * the answer has been read or the connection ended.
 */
export function sendBody(
  url: string,
  opts: {
    total: number;
    announce: boolean;
    method?: string;
    headers?: Record<string, string>;
    onMegabyte?: () => void;
  },
): Promise<Sent> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const out: Sent = { body: '', sent: 0 };
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      if (error && out.status === undefined) out.error = error;
      req.destroy();
      resolve(out);
    };
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: opts.method ?? 'POST',
      agent: false,
      headers: {
        ...opts.headers,
        ...(opts.announce ? { 'content-length': String(opts.total) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      out.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out.body += c));
      res.on('end', () => finish());
      res.on('error', (e) => finish(e.message));
    });
    req.on('error', (e) => {
      // Writing into a connection the server closed fails; the answer may still be on its way.
      if (out.status === undefined) setTimeout(() => finish(e.message), 200);
    });
    const chunks = body(opts.total);
    let nextMegabyte = 1 << 20;
    const pump = () => {
      for (;;) {
        if (done || req.destroyed || out.status !== undefined) return;
        const next = chunks.next();
        if (next.done) return void req.end();
        out.sent += next.value.length;
        if (out.sent >= nextMegabyte) {
          nextMegabyte += 1 << 20;
          opts.onMegabyte?.();
        }
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/** A process's resident memory, bytes (Linux: /proc/<pid>/status). */
export function rssOf(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/**
 * Sends the body while watching `pid`'s memory: the answer and how far the server's RSS rose above
 * where it was before the request (the highest sample, one per MB sent and one after).
 */
export async function sendWatching(
  pid: number,
  url: string,
  opts: Parameters<typeof sendBody>[1],
): Promise<Sent & { rssGrowth: number }> {
  const before = rssOf(pid);
  let peak = before;
  const sample = () => (peak = Math.max(peak, rssOf(pid)));
  const out = await sendBody(url, { ...opts, onMegabyte: sample });
  sample();
  return { ...out, rssGrowth: peak - before };
}

/** The addresses a TCP port listens on: IPv4 dotted, IPv6 as /proc/net/tcp6 writes them ("tcp6 <hex>"). */
export function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // no IPv6 on this machine
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A: LISTEN
      const [hex, p] = local.split(':');
      if (parseInt(p, 16) !== port) continue;
      out.push(
        v6
          ? `tcp6 ${hex}`
          : hex
              .match(/../g)!
              .reverse()
              .map((b) => parseInt(b, 16))
              .join('.'),
      );
    }
  }
  return out;
}
