/** The state of one running sandbox, shared by the request pipeline, the admin routes and the Sandbox handle. */
import type { World } from './world/records';
import type { Billing } from './billing';
import type { FaultConfig, FaultDice } from './faults';
import type { Overlay } from './overlay';
import type { Stats } from './stats';
import type { Timers } from './timers';
import type { RateLimit } from './rate-limit';
import type { MediaLinks } from './media/links';
import type { SandboxClock } from './clock';
import type { MovingWorld } from './world/moving';

export interface Runtime {
  readonly seed: number;
  /** Server start time (ms, the clock's start); also salts the request ids. */
  readonly startedAt: number;
  /** The sandbox's now (live stories, new posts, media expiry): see clock.ts. */
  readonly clock: SandboxClock;
  readonly quiet: boolean;
  readonly world: World;
  /** The world since the start, as the world's clock moves (clock.worldNow). */
  readonly moving: MovingWorld;
  readonly overlay: Overlay;
  readonly billing: Billing;
  readonly stats: Stats;
  readonly dice: FaultDice;
  readonly timers: Timers;
  /** Who is admitted under faults.rateLimitInFlight / rateLimitPerSecond. */
  readonly rateLimit: RateLimit;
  readonly nextRequestId: () => string;
  /** Signs the media links of answers and checks them when they are fetched. */
  readonly media: MediaLinks;
  /** Changed at run time (setFaults, POST /_sandbox/faults): read it per request, never keep a copy. */
  faults: FaultConfig;
}
