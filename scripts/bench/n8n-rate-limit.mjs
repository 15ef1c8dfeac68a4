// The rate-limited case of `npm run bench:n8n`: a second sandbox admits RATE.inFlight requests
// in flight (429 with Retry-After: RATE.retryAfterSeconds beyond, sandbox/rate-limit.ts), reached
// through a credential of its own, so what the IG Data node learns of its pace there is apart
// from the other cases. The same 200 lookups (120 unique) at the default settings run twice in the
// same n8n: the first execution meets the limit, the second, `pauseMs` later, starts at the pace
// the first learned. The floor is what the limit allows at best: unique requests / in flight x latency.
import { nodeOutput } from '../n8n-harness/index.cjs';

export const RATE = { inFlight: 20, retryAfterSeconds: 1 };
const UNIQUE = 120;

/** One execution of the rate-limited workflow: its time, its items' pairing, what the sandbox saw. */
async function once(server, sb, name) {
  sb.resetStats();
  const r = await server.run(name);
  if (!r.ok) throw new Error(`${name}: run failed: ${JSON.stringify(r.error).slice(0, 500)}`);
  const task = r.run.data.resultData.runData['Under test'][0];
  const items = nodeOutput(r.run, 'Under test', { full: true });
  const s = sb.stats();
  return {
    ms: task.executionTime,
    items: items.length,
    paired: items.every((it, k) => it.pairedItem?.item === k),
    delivered: items.filter((it) => it.json.delivered !== false).length,
    requests: s.total,
    refused: s.byStatus['429'] ?? 0,
    credits: s.creditsBilled,
    unique: Object.keys(s.byRequest).filter((k) => !k.startsWith('credits')).length,
  };
}

/** Both executions, `pauseMs` apart, and the checks of issue 33 on them. */
export async function rateLimitRuns(server, sb, name, { latencyMs, inputs, pauseMs }) {
  const first = await once(server, sb, name);
  await new Promise((r) => setTimeout(r, pauseMs));
  const second = await once(server, sb, name);
  const floor = (UNIQUE / RATE.inFlight) * latencyMs;
  const all = (run) => run.items === inputs && run.paired && run.credits === UNIQUE && run.unique === UNIQUE;
  const line = (run) =>
    `${run.ms} ms = ${(run.ms / floor).toFixed(2)}x the floor; ${run.items} items (${run.delivered} answered), ` +
    `${run.requests} requests of which ${run.refused} refused (${((100 * run.refused) / run.requests).toFixed(1)}%), ${run.credits} credits`;
  const checks = [
    [
      `rate limit ${RATE.inFlight} in flight: every input comes out, paired; credits = unique requests, both executions`,
      all(first) && all(second),
      `${first.items} / ${second.items} items, ${first.credits} / ${second.credits} credits`,
    ],
    [`rate limit: the first execution within 2.5x of the floor (${floor} ms)`, first.ms <= 2.5 * floor, line(first)],
    [
      `rate limit: the second, ${Math.round(pauseMs / 1000)} s later, within 1.25x of the floor with at most 5% refused`,
      second.ms <= 1.25 * floor && second.refused <= 0.05 * second.requests,
      line(second),
    ],
  ];
  return { first, second, floor, checks };
}
