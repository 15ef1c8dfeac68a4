/**
 * Signed media links, as real CDNs issue them: `<origin>/media/<kind>/<name>.<ext>?exp=<epoch
 * seconds>&sig=<hmac>`. The signature binds the path to its expiry, so a link cannot be extended
 * by editing `exp`; past `exp` the link answers 403 "URL signature expired".
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_REF } from '../world/media';

/** Where the sandbox serves media. */
export const MEDIA_PREFIX = '/media';

// A media reference is a whole JSON string value; world/media.ts makes them from these characters only.
const REF_IN_JSON = new RegExp(`"${MEDIA_REF}(/[a-z]+/[A-Za-z0-9_.-]+)"`, 'g');

export type LinkCheck = 'ok' | 'mismatch' | 'expired';

export class MediaLinks {
  private readonly startS: number;

  constructor(
    private readonly secret: string,
    startedAt: number,
  ) {
    this.startS = Math.floor(startedAt / 1000);
  }

  /**
   * The expiry of links issued at `nowMs` that live `ttlS` seconds: the end of the window of `ttlS`
   * after the current one, counted from the sandbox's start. So every answer of one window carries
   * the same links (answers stay byte-identical, as cached CDN links are), and a link lives at least
   * `ttlS` and at most twice that.
   */
  expiry(nowMs: number, ttlS: number): number {
    const windows = Math.floor((Math.floor(nowMs / 1000) - this.startS) / ttlS);
    return this.startS + (windows + 2) * ttlS;
  }

  private sig(path: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${path}|${exp}`).digest('hex').slice(0, 32);
  }

  // A page of posts holds up to 90 links and all answers of a window share one expiry: signing
  // each anew took ~2 us a link (180 us a page), so the window's signatures are kept.
  private signed = new Map<string, string>();
  private signedExp = 0;
  private signedSig(path: string, exp: number): string {
    if (exp !== this.signedExp || this.signed.size >= 100_000) {
      this.signed = new Map();
      this.signedExp = exp;
    }
    let sig = this.signed.get(path);
    if (sig === undefined) this.signed.set(path, (sig = this.sig(path, exp)));
    return sig;
  }

  /** Every media reference in an answer's JSON, turned into a link on `origin` (http://host:port). */
  signAll(json: string, origin: string, nowMs: number, ttlS: number): string {
    if (!json.includes(MEDIA_REF)) return json;
    const exp = this.expiry(nowMs, ttlS);
    return json.replace(
      REF_IN_JSON,
      (_, path: string) => `"${origin}${MEDIA_PREFIX}${path}?exp=${exp}&sig=${this.signedSig(path, exp)}"`,
    );
  }

  /** `path` is the part after /media (`/p/<shortcode>.png`). */
  check(path: string, exp: string | null, sig: string | null, nowMs: number): LinkCheck {
    if (!exp || !/^\d{1,12}$/.test(exp) || !sig) return 'mismatch';
    const want = Buffer.from(this.sig(path, Number(exp)));
    const got = Buffer.from(sig);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return 'mismatch';
    return nowMs >= Number(exp) * 1000 ? 'expired' : 'ok';
  }
}
