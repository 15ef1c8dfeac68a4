/** How a parameter's value is read and normalised before it is sent (see ../resolve.ts). */
type ParamKind =
  | 'handle' // account: username, @username, numeric id or profile URL
  | 'post' // post/reel: media id, shortcode or URL
  | 'tag' // hashtag with or without '#', or a tag URL
  | 'location' // location id or location URL
  | 'integer'
  | 'text' // free text, sent as given (trimmed)
  | 'cursor'; // opaque, passed back unchanged

/**
 * A response schema as plain data (schemas.ts), checked by core/src/shape.ts: a type name, or a
 * loose object (fields it does not name pass), a list, or a record (any keys, values of one shape).
 */
export type Shape =
  'string' | 'number' | 'boolean' | { object: Readonly<Record<string, Field>> } | { array: Shape } | { record: Shape };

/**
 * A field of an object: required, or optional (may be absent) and then maybe nullable too.
 * `media`: the field is a link to a picture or video on the service's CDN, the only links a
 * product may download (n8n's Download Media); any other link in an answer (an account's
 * `external_url`) is a stranger's and is never fetched.
 * `stranger`: the field is text that other people wrote (a caption, a biography, a name, a
 * comment, a place's name): a spreadsheet would run it as a formula when it starts like one, so
 * products that hand items to spreadsheets and CSV files give it a twin that stays text
 * (core/src/stranger-text.ts). A required field carries the marker as `{ required, stranger }`.
 */
export type Field =
  Shape | { optional: Shape; nullable?: true; media?: true; stranger?: true } | { required: Shape; stranger: true };

/** A parameter as the runtime reads it: validation, defaults, messages. Its documentation: docs.ts. */
export interface ParamDef {
  /** The query parameter name, as the API spells it. */
  name: string;
  kind: ParamKind;
  required: boolean;
  min?: number;
  max?: number;
  default?: number | string;
  /**
   * Text parameters only: what the value is. A runtime fact, because the validation message quotes
   * it ("criteria must be given (plain-language description of the ideal lead)"); it is the
   * parameter's documentation too. Every other parameter is described in docs.ts.
   */
  description?: string;
}

/**
 * Credit cost rule. `exact` rules come straight from the spec; `window` and `estimate` rules are our
 * reading of a range the spec gives ("2-6 by window") and are what the sandbox bills.
 */
export type CostRule =
  | { type: 'flat'; credits: number; exact: boolean }
  /** base + ceil(param / per) * perWindow, e.g. engagement = 1 + ceil(posts / 12). */
  | { type: 'window'; param: string; base: number; per: number; perWindow: number };

/**
 * An endpoint's runtime facts (endpoints.ts): what products need to validate, send, bill, check,
 * cache and tabulate a call. What only docs, generated code and editors show is in EndpointDoc.
 */
export interface EndpointDef {
  /** Path without `/v1/`, e.g. `profile/posts`; equals `meta.endpoint` and the n8n operation value. */
  id: string;
  /** Sheets custom function name. */
  fn: string;
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
  /**
   * The Sheets tracker ("Track these accounts") takes fields from this endpoint (one target, one
   * row of account figures); `idField`: the answer's stable account id, which links the lines of
   * an account that changed its username. A field is looked for in registry order.
   */
  tracker?: { idField?: string };
  /** Schema of `data` (single) or of each item (list). */
  schema: Shape;
  /** Default table columns (dotted paths into the flattened item). */
  columns: string[];
}

type Group = 'Profiles' | 'Insights' | 'Posts' | 'Hashtags' | 'Locations' | 'Search' | 'Account';

/**
 * An endpoint's documentation (docs.ts, by endpoint id): what the README, the generated JSDoc, the
 * sidebar's list, the OpenAPI document and the n8n editor show. Nothing at run time reads it, so
 * the Sheets bundle leaves it out.
 */
export interface EndpointDoc {
  group: Group;
  /** Name of the n8n resource this endpoint is an operation of. */
  resource: 'Profile' | 'Profile Insight' | 'Post' | 'Hashtag' | 'Location' | 'Search' | 'Account';
  /** Operation display name within its resource, e.g. "Get Posts". */
  operation: string;
  summary: string;
  /** For AI agents and docs: when to use it and what comes back. */
  description: string;
  /** false for the §4.3 endpoints whose parameters and shapes the spec does not show. */
  documented?: false;
  /**
   * The field the docs' example formula asks for: the one that shows what the endpoint is for
   * (an engagement rate, not the follower count it also returns). Default: the first column that
   * is not an identity field.
   */
  exampleField?: string;
  /**
   * What the service's AI models make for the request, as a noun ("Caption", "Lead Score"): the
   * answer is written for this call (spec §1: insights "use AI models for scoring, classification,
   * summaries and vision tags"; §4.3's writing endpoints), not data that existed before it was
   * asked. Zapier offers such an endpoint as a create action, not a search (zapier/src/creates.ts).
   */
  makes?: string;
}

/** A parameter's documentation (docs.ts, by parameter name). */
export interface ParamDoc {
  /** Absent for text parameters, whose description is a runtime fact (ParamDef.description). */
  description?: string | ((p: ParamDef) => string);
  /** An example value for docs, JSDoc, n8n placeholders and the OpenAPI document. */
  example?: string | number;
}

/** A parameter with its documentation. */
export type DocumentedParam = ParamDef & { description: string; example?: string | number };

/** An endpoint with its documentation: runtime facts and docs joined (docs.ts `documentedEndpoints`). */
export type DocumentedEndpoint = Omit<EndpointDef, 'params'> &
  Omit<EndpointDoc, 'documented'> & {
    params: DocumentedParam[];
    documented: boolean;
  };
