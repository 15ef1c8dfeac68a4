/**
 * Zapier's own side of a polling trigger, as its docs describe it: turning a Zap on runs the
 * populating poll (`meta.isPopulatingDedupe`), whose items only fill the Zap's deduplication
 * table; then a poll every interval of the plan (1, 2, 5 or 15 minutes); an item whose `id` the
 * Zap has seen is dropped, per Zap; a poll with more than 100 new items has its runs held
 * (docs.zapier.com/platform/build/troubleshoot-throttles), counted here as `held`.
 */
import type { Sandbox } from '../../../scripts/sandbox/server';
import type { Connection, Run } from './lambda';

const MINUTE = 60_000;
const NEW_ITEMS_MAX = 100;

export interface ZapSpec {
  /** The Zap's id, which Zapier sends as `meta.zap.id` only when `sendsZapId`. */
  id: string;
  connection: Connection;
  trigger: string;
  inputData: Record<string, unknown>;
  /** The plan's polling interval, minutes. */
  interval: number;
  /** The minute of the hour its polls fall on (Zapier spreads Zaps). */
  offset?: number;
  sendsZapId: boolean;
}

export class Zap {
  readonly seen = new Set<string>();
  readonly emitted: string[] = [];
  /** The items emitted, as the step returned them (the ids of `emitted`, in order). */
  readonly items: Record<string, unknown>[] = [];
  readonly newPerPoll: number[] = [];
  held = 0;

  constructor(
    readonly spec: ZapSpec,
    private readonly run: Run,
  ) {}

  private bundle(meta: Record<string, unknown>) {
    const zap = this.spec.sendsZapId ? { zap: { id: this.spec.id } } : {};
    return { inputData: { ...this.spec.inputData }, meta: { ...zap, ...meta } };
  }

  private perform(meta: Record<string, unknown>): Promise<({ id: string } & Record<string, unknown>)[]> {
    return this.run(`triggers.${this.spec.trigger}.operation.perform`, this.spec.connection, this.bundle(meta));
  }

  async turnOn(): Promise<void> {
    for (const p of await this.perform({ isPopulatingDedupe: true })) this.seen.add(p.id);
  }

  dueAt(minute: number): boolean {
    return (minute - (this.spec.offset ?? 0)) % this.spec.interval === 0;
  }

  async poll(): Promise<void> {
    const fresh = (await this.perform({})).filter((p) => !this.seen.has(p.id));
    this.newPerPoll.push(fresh.length);
    if (fresh.length > NEW_ITEMS_MAX) this.held++;
    for (const p of fresh) {
      this.seen.add(p.id);
      this.emitted.push(p.id);
      this.items.push(p);
    }
  }
}

/** Zapier's clock (the integration reads Date.now, jest's, faked) and each sandbox's world, to one instant. */
export function moveTo(at: number, sandboxes: Sandbox[]): void {
  jest.setSystemTime(at);
  for (const sb of sandboxes) sb.clock.moveTo(at);
}

/**
 * `minutes` of Zapier from `start`: each minute, `events[minute]` first (a burst), then each Zap
 * whose poll falls on that minute, in order. Then `settle` minutes more of Zapier's polls with the
 * APIs' worlds stopped at the end: every Zap gets a due check after the last post, so what each
 * emitted can be compared with every post up to the end.
 */
export async function simulate(
  zaps: Zap[],
  sandboxes: Sandbox[],
  start: number,
  minutes: number,
  { events = {}, settle = 0 }: { events?: Record<number, () => void>; settle?: number } = {},
): Promise<void> {
  for (let m = 1; m <= minutes + settle; m++) {
    moveTo(start + m * MINUTE, m <= minutes ? sandboxes : []);
    events[m]?.();
    for (const zap of zaps) if (zap.dueAt(m)) await zap.poll();
  }
}

/** Every post of `tag` newer than `since`, and when it was taken, straight from the sandbox: the truth to compare with. */
export async function postsSince(sb: Sandbox, tag: string, since: number): Promise<{ id: string; at: number }[]> {
  const ids: { id: string; at: number }[] = [];
  for (let cursor: string | null = null; ;) {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${sb.url}/v1/hashtag/recent?tag=${tag}${q}`, { headers: { 'x-api-key': sb.demoKey } });
    const body = (await res.json()) as {
      data: { items: { id: string; taken_at: string }[]; next_cursor: string | null };
    };
    const newer = body.data.items.filter((p) => Date.parse(p.taken_at) > since);
    ids.push(...newer.map((p) => ({ id: p.id, at: Date.parse(p.taken_at) })));
    if (newer.length < body.data.items.length || !body.data.next_cursor) return ids;
    cursor = body.data.next_cursor;
  }
}
