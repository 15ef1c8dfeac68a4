/**
 * What the sidebar's bulk lookup offers, one entry per endpoint that takes a target. Static (the
 * registry and its docs alone), so the build writes it into Sidebar.html (IG_ENDPOINTS) and
 * bundle.js, loaded by every custom-function execution, carries none of it (summaries, cost texts,
 * field lists).
 */
import type { EndpointDef } from '@igdata/core';
import { describeCost, documented, endpoints, fieldPaths } from '@igdata/core';
import { bulkEndpoints, pageSizeOf } from './bulk/plan';
import { targetParam } from './engine/layout';

interface EndpointInfo {
  id: string;
  fn: string;
  summary: string;
  target: string;
  params: {
    name: string;
    description: string;
    required: boolean;
    min?: number;
    max?: number;
    default?: number | string;
  }[];
  columns: string[];
  fields: string[];
  cost: string;
  /** Bulk runs of list endpoints ask for items per target and write to a new sheet. */
  shape: 'single' | 'list';
  paginated: boolean;
  /** Items per page used for the cost estimate (null: one page). */
  pageSize: number | null;
}

const info = (runtime: EndpointDef): EndpointInfo => {
  const e = documented(runtime); // the summary and parameter descriptions are the registry's docs
  const t = targetParam(e)!;
  return {
    id: e.id,
    fn: e.fn,
    summary: e.summary,
    target: t.name,
    params: e.params
      .filter((p) => p !== t && p.kind !== 'cursor')
      .map((p) => ({
        name: p.name,
        description: p.description,
        required: p.required,
        min: p.min,
        max: p.max,
        default: p.default,
      })),
    columns: e.columns,
    fields: fieldPaths(e.schema),
    cost: describeCost(e),
    shape: e.shape as EndpointInfo['shape'],
    paginated: e.paginated,
    pageSize: pageSizeOf(e),
  };
};

/** The sidebar's endpoint list (build time). */
export const sidebarEndpoints = (): EndpointInfo[] => bulkEndpoints(endpoints).map(info);
