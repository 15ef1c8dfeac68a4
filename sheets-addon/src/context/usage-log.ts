/**
 * Recording usage (engine/usage.ts holds the log's shape). Custom functions may not write
 * properties, so a formula adds its credits to a cache item under the document lock; runs holding
 * the document lock (the hourly trigger, the sidebar, a bulk step) move it into the property
 * IGDATA_USAGE, with their own credits.
 */
import { plural } from '@igdata/core';
import type { AnswerStore } from '../engine/types';
import type { Lost } from '../engine/walk';
import type { Usage } from '../engine/usage';
import { addUsage, mergeUsage, parseUsage } from '../engine/usage';
import type { Context } from './context';
import { PROP } from './property-names';

/** The cache item holding what formulas spent since the last move into the property. */
const ITEM = 'igd1:usage';
/** CacheService's longest life: the hourly trigger moves the item long before. */
const ITEM_TTL_SECONDS = 21600;

type UsageContext = Pick<Context, 'props' | 'places' | 'now'>;

const today = (ctx: UsageContext) => new Date(ctx.now()).toISOString().slice(0, 10);
const pending = (ctx: UsageContext) => parseUsage(ctx.places.cache.getAll([ITEM])[ITEM]);

/**
 * The line of the log for lookups whose answer was lost after they may have reached the service:
 * they were sent again (once), and the lost sends may have been billed, so what they may have cost
 * is counted on a line of its own that says so.
 */
const lostLabel = (label: string, lost: Lost): string =>
  `${label}: ${plural(lost.lookups, 'lookup')} ` + `sent again after a lost answer (may have been charged)`;

/**
 * A formula spent credits, added under the store's brief lock (not recorded when it stays busy: a known undercount).
 */
export function formulaSpent(ctx: UsageContext, store: AnswerStore, label: string, credits: number, lost?: Lost): void {
  store.withLock(() => {
    const u = credits ? addUsage(pending(ctx), label, credits, today(ctx)) : pending(ctx);
    if (lost?.lookups) addUsage(u, lostLabel(label, lost), lost.credits, today(ctx));
    ctx.places.cache.putAll({ [ITEM]: JSON.stringify(u) }, ITEM_TTL_SECONDS);
  });
}

/**
 * Under the document lock: the formulas' usage, and a run's credits (and lost lookups) under `label`, into the
 * property; all of it.
 */
export function recordUsage(ctx: UsageContext, label?: string, credits = 0, lost?: Lost): Usage {
  const more = credits ? addUsage(pending(ctx), label!, credits, today(ctx)) : pending(ctx);
  if (lost?.lookups) addUsage(more, lostLabel(label!, lost), lost.credits, today(ctx));
  const u = mergeUsage(parseUsage(ctx.props.get(PROP.usage)), more);
  ctx.props.set(PROP.usage, JSON.stringify(u));
  ctx.places.cache.removeAll?.([ITEM]);
  return u;
}
