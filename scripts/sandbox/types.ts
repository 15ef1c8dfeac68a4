/** The public types of the sandbox library (re-exported by server.ts). */
import type { Step, StepMeasure } from './world/steps';
import type { World } from './world/records';
import type { FaultConfig } from './faults';

export interface SandboxOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  /**
   * Where to listen and the host names to answer to, as IGDATA_LISTEN (scripts/lib/listen.ts:
   * `<address>[,<name>...]`). Default: env IGDATA_LISTEN, else 127.0.0.1. Never HOST.
   */
  listen?: string;
  seed?: number;
  latencyMs?: number;
  faultRate?: number;
  faultStatus?: 502 | 504;
  /** How long a "timeout" fault hangs before its 504. */
  slowMs?: number;
  /** How long media links in answers live (seconds; default a week). Also SANDBOX_MEDIA_TTL_SECONDS, POST /_sandbox/faults. */
  mediaTtlSeconds?: number;
  /** The rate limit, off by default: requests admitted at once / per second, the 429's Retry-After (faults.ts). */
  rateLimitInFlight?: number;
  rateLimitPerSecond?: number;
  retryAfterSeconds?: number;
  /** No log lines (default true in-process; the CLI logs). */
  quiet?: boolean;
  /** Demo key; defaults to env SANDBOX_DEMO_KEY, else derived from the seed. */
  demoKey?: string;
  /** The instant the sandbox's clock starts at (ms or ISO 8601 with its zone); also IGDATA_CLOCK_START. Default: the real time (refused under tests). */
  startAt?: number | string;
  /** Read SANDBOX_* variables from this environment (default process.env). */
  env?: Record<string, string | undefined>;
}

export interface SandboxStats {
  /** API requests (/v1/...), whatever their outcome. Admin routes and /openapi.json are not counted. */
  total: number;
  /** Requests per endpoint id (`profile/posts`). */
  byEndpoint: Record<string, number>;
  /** Requests per endpoint + normalised query (core's requestKey, e.g. `profile?handle=nasa`). */
  byRequest: Record<string, number>;
  /** Requests per HTTP status. */
  byStatus: Record<string, number>;
  /** Credits billed in total (200 and 404 answers). */
  creditsBilled: number;
  /** Injected 502/504/timeouts. */
  faults: number;
  /** Of `total`, the tool calls made through the MCP server at /mcp (billed and counted as REST calls are). */
  mcpCalls: number;
  /** Media links fetched (/media/...): free, so counted apart from the API requests above. */
  media: { requests: number; bytes: number; byStatus: Record<string, number> };
  inFlight: number;
  maxInFlight: number;
}

export interface PublishedPost {
  id: string;
  shortcode: string;
  url: string;
  taken_at: string;
  author: string;
}

export interface Sandbox {
  url: string;
  /** The address the server is bound to: 127.0.0.1 unless IGDATA_LISTEN names another (0.0.0.0: every interface). */
  address: string;
  /** The MCP server (Streamable HTTP): `${url}/mcp`. */
  mcpUrl: string;
  port: number;
  demoKey: string;
  seed: number;
  /** Where the sandbox's clock started (ms): live stories are within 24 h before it. */
  startedAt: number;
  /**
   * The sandbox's clock (also GET/POST /_sandbox/clock): `now()` runs at the real pace (media links'
   * expiry); `worldNow()`, the world's time (followers, new posts, stories), moves only by
   * `advance(ms)` and `moveTo(instant)`.
   */
  clock: { now(): number; worldNow(): number; advance(ms: number): void; moveTo(at: number): void };
  close(): Promise<void>;
  createKey(balance?: number): string;
  balance(key: string): number;
  setBalance(key: string, balance: number): void;
  revokeKey(key: string): boolean;
  stats(): SandboxStats;
  resetStats(): void;
  /** Publish n new posts carrying #tag: they appear at the head of hashtag/recent, newest first. */
  addPosts(tag: string, n: number, caption?: string): PublishedPost[];
  /** Delete a post (id or shortcode) from every feed; later lookups answer 404. */
  deletePost(idOrShortcode: string): boolean;
  /** Pin the account's `count` (0-3) oldest posts: shown first on profile/posts' first page (0 unpins). */
  pinPosts(handle: string, count: number): PublishedPost[];
  /**
   * A step in a seeded account's followers or engagement (its posts' likes and comments): from world
   * time `at` (ms or ISO 8601; default the world's now, never before it) the measure is × (1 + change),
   * over the drift (world/steps.ts; also POST /_sandbox/profile/<handle>/step). Returns the account's steps.
   */
  step(s: { handle: string; measure: StepMeasure; change: number; at?: number | string }): Step[];
  faults(): FaultConfig;
  setFaults(partial: Partial<FaultConfig>): FaultConfig;
  /** The (shared, read-only) synthetic world. */
  world: World;
}
