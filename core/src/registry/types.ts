import type { ZodMiniType } from 'zod/mini';

/** How a parameter's value is read and normalised before it is sent (see ../resolve.ts). */
type ParamKind =
  | 'handle' // account: username, @username, numeric id or profile URL
  | 'post' // post/reel: media id, shortcode or URL
  | 'tag' // hashtag with or without '#', or a tag URL
  | 'location' // location id or location URL
  | 'integer'
  | 'text' // free text, sent as given (trimmed)
  | 'cursor'; // opaque, passed back unchanged

export interface ParamDef {
  /** The query parameter name, as the API spells it. */
  name: string;
  kind: ParamKind;
  required: boolean;
  description: string;
  min?: number;
  max?: number;
  default?: number | string;
  /** An example value for docs, JSDoc and the OpenAPI document. */
  example?: string | number;
}

type Group = 'Profiles' | 'Insights' | 'Posts' | 'Hashtags' | 'Locations' | 'Search' | 'Account';

/**
 * Credit cost rule. `exact` rules come straight from the spec; `window` and `estimate` rules are our
 * reading of a range the spec gives ("2-6 by window") and are what the sandbox bills.
 */
export type CostRule =
  | { type: 'flat'; credits: number; exact: boolean }
  /** base + ceil(param / per) * step, e.g. engagement = 1 + ceil(posts / 12). */
  | { type: 'window'; param: string; base: number; per: number; step: number };

export interface EndpointDef {
  /** Path without `/v1/`, e.g. `profile/posts`; equals `meta.endpoint` and the n8n operation value. */
  id: string;
  group: Group;
  /** Name of the n8n resource this endpoint is an operation of. */
  resource: 'Profile' | 'Profile Insight' | 'Post' | 'Hashtag' | 'Location' | 'Search' | 'Account';
  /** Operation display name within its resource, e.g. "Get Posts". */
  operation: string;
  /** Sheets custom function name. */
  fn: string;
  summary: string;
  /** For AI agents and docs: when to use it and what comes back. */
  description: string;
  params: ParamDef[];
  /** `list` returns data.items + data.next_cursor; `single` returns one object in data. */
  shape: 'list' | 'single';
  /** Whether the list can be paged with `cursor`. */
  paginated: boolean;
  /**
   * Items per page of a paged list: the spec's "about 25" for followers and following, elsewhere
   * what the sandbox serves. An estimate for cost previews; the real count is known after fetching.
   */
  pageSize?: number;
  cost: CostRule;
  /**
   * How long, in hours, an answer may be reused at most, whatever a product's own setting: what the
   * data is decides it (stories live 24 hours, a hashtag's recent posts change by the minute). null:
   * nothing in the data is shorter-lived than the longest setting, so the user's setting alone
   * decides. The numbers and why: core/src/registry/endpoints.ts (REUSE).
   */
  maxReuseHours: number | null;
  /** Schema of `data` (single) or of each item (list). */
  schema: ZodMiniType;
  /** Default table columns (dotted paths into the flattened item). */
  columns: string[];
  /** False for the §4.3 endpoints whose parameters and shapes the spec does not show. */
  documented: boolean;
  /**
   * The field the docs' example formula asks for: the one that shows what the endpoint is for
   * (an engagement rate, not the follower count it also returns). Default: the first column that
   * is not an identity field.
   */
  exampleField?: string;
}
