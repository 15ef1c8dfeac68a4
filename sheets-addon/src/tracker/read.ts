/**
 * What a tracker or a benchmark reads, from the sidebar's request, checked: the fields offered (the registry's
 * `tracker` fact), the endpoints they come from, and its timing, cap and name (nothing is saved on bad input).
 */
import type { EndpointDef } from '@igdata/core';
import { endpoints, estimateCost } from '@igdata/core';
import { ERROR_CODE, FETCHED_AT } from '../engine/values';
import { readCap } from '../schedule/schedules';
import type { Repeat } from '../schedule/when';
import { readRepeat } from '../schedule/when';

/**
 * The endpoints a tracker takes fields from (the registry's `tracker` fact), in registry order: a profile's followers
 * before an insight's.
 */
export const trackable = (): EndpointDef[] => endpoints.filter((e) => e.tracker);
export const DEFAULT_FIELDS = ['followers', 'posts', 'engagement_rate_pct'];

export interface TrackerRequest {
  fields?: string;
  every?: unknown;
  weekday?: unknown;
  hour?: unknown;
  cap?: unknown;
  name?: string;
  sortBy?: string;
}

/** What one account costs at an endpoint a tracker takes fields from. */
const creditsOf = (e: EndpointDef): number => estimateCost(e, {}).credits;

/** Each field a tracker offers, with the first trackable endpoint that returns it. */
function offered(): { field: string; endpoint: EndpointDef }[] {
  const seen = new Set<string>();
  return trackable().flatMap((endpoint) =>
    endpoint.columns
      .filter((c) => c !== 'username' && !seen.has(c) && seen.add(c))
      .map((field) => ({ field, endpoint })),
  );
}

/** The fields a tracker offers, each with the function it comes from and what that costs an account. */
export const trackableFields = (): { field: string; fn: string; credits: number }[] =>
  offered().map(({ field, endpoint }) => ({ field, fn: endpoint.fn, credits: creditsOf(endpoint) }));

/** A tracker's parts from the sidebar, checked (a clear message naming the field, nothing saved on bad input). */
export function readTracker(req: TrackerRequest) {
  const fields = String(req.fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const chosen = fields.length ? [...new Set(fields)] : DEFAULT_FIELDS;
  const choices = offered();
  const byEndpoint = new Map<EndpointDef, string[]>();
  for (const f of chosen) {
    const e = choices.find((c) => c.field === f)?.endpoint;
    if (!e)
      throw new Error(
        `Fields: "${f}" is not a field of a profile or its insights. ` +
          `Choose from: ${choices.map((x) => x.field).join(', ')}.`,
      );
    byEndpoint.set(e, [...(byEndpoint.get(e) ?? []), f]);
  }
  // The profile's id links the lines of an account that changed its username; `_fetched_at` says
  // when each snapshot's answer was fetched (a run may reuse an earlier answer: the view's "fetched");
  // `_error` holds a failed lookup's code, by which the view tells a failure's row from values.
  const parts = [...byEndpoint].map(([endpoint, f]) => {
    const idField = endpoint.tracker?.idField;
    return { endpoint, fields: [...f, ...(idField ? [idField] : [])], params: {} };
  });
  return readRuns(req, chosen, parts);
}

/** A run of one endpoint of a tracker or a benchmark: the fields it writes into its history sheet, with what params. */
export interface PartRequest {
  endpoint: EndpointDef;
  fields: string[];
  params: Record<string, unknown>;
}

/**
 * The timing, cap, sort and name of a tracker or a benchmark, checked, with its parts: each one's history also holds
 * when its answer was fetched and a failed lookup's code (view.ts tells values from failures by it).
 */
export function readRuns(
  req: TrackerRequest,
  chosen: string[],
  asked: PartRequest[],
  kinds?: Repeat['every'][],
  /** What `chosen` holds, for the messages: a tracker's fields, a benchmark's measures. */
  noun = 'fields',
) {
  const parts = asked.map((p) => ({
    ...p,
    fields: [...p.fields, FETCHED_AT, ERROR_CODE],
    credits: estimateCost(p.endpoint, p.params as never).credits,
  }));
  const each = parts.reduce((n, p) => n + p.credits, 0);
  const repeat = readRepeat({ every: req.every ?? 'weekly', weekday: req.weekday ?? 1, hour: req.hour ?? 7 }, kinds);
  const cap = readCap(req.cap);
  if (cap < each)
    throw new Error(`Credit cap per run: at least ${each}, what one account costs with these ${noun} (got ${cap}).`);
  const sortBy = String(req.sortBy ?? '').trim() || chosen[0];
  if (!chosen.includes(sortBy))
    throw new Error(`Sort by: one of the chosen fields (${chosen.join(', ')}); got "${sortBy}".`);
  // `settings`: the tracker record's own fields, as it stores them.
  return {
    settings: { fields: chosen, sortBy, repeat, cap },
    parts,
    each,
    name: String(req.name ?? '')
      .trim()
      .slice(0, 60),
  };
}
