/**
 * Apps Script's daily quotas, counted over a rolling 24 hours of the runtime's clock. Google's page
 * says a quota resets "24 hours after the first request"; a rolling window is the stricter of the two
 * (a use made late in a fixed window frees only 24 h after it here), so a product that waits long
 * enough here waits long enough there.
 */
const DAY_MS = 24 * 3600 * 1000;

/** One daily quota: uses (or ms of runtime) by when they happened. */
export class DailyQuota {
  /** [when, amount], oldest first. */
  private readonly uses: [number, number][] = [];
  constructor(readonly limit: () => number) {}

  /** What the last 24 hours before `now` used. */
  used(now: number): number {
    while (this.uses.length && this.uses[0][0] <= now - DAY_MS) this.uses.shift();
    return this.uses.reduce((sum, [, n]) => sum + n, 0);
  }

  /** Whether `amount` more fits today; nothing is counted when it does not (nothing happens). */
  take(now: number, amount: number): boolean {
    if (this.used(now) + amount > this.limit()) return false;
    this.add(now, amount);
    return true;
  }

  /** Counts `amount` (runtime already spent: it happened whatever the quota says). */
  add(now: number, amount: number): void {
    if (amount > 0) this.uses.push([now, amount]);
  }

  /** When the oldest use still counted leaves the window (null: nothing counted). */
  freesAt(now: number): number | null {
    this.used(now);
    return this.uses.length ? this.uses[0][0] + DAY_MS : null;
  }
}

/** The quotas of one runtime (one user's account, as Google counts them per user). */
export interface DailyQuotas {
  urlfetch: DailyQuota;
  properties: DailyQuota;
  triggerRuntimeMs: DailyQuota;
  /** Email recipients (MailApp), each address of each message. */
  mailRecipients: DailyQuota;
}

/** Google's sentences at a quota (the quotas page's "Service invoked too many times for one day: email."). */
export const QUOTA_MESSAGES = {
  urlfetch: 'Service invoked too many times for one day: urlfetch.',
  properties: 'Service invoked too many times for one day: properties.',
  triggerRuntimeMs: 'Service using too much computer time for one day',
  mailRecipients: 'Service invoked too many times for one day: email.',
} as const;
