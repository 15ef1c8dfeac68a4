/**
 * MailApp: sendEmail in its two forms (recipient, subject, body[, options]) and ({ to, subject, body,
 * ... }), and getRemainingDailyQuota. Google's quotas page counts *recipients* a day (consumer 100,
 * Workspace 1,500: `limits.mailDailyRecipients`, over the runtime's rolling 24 hours, quota.ts) and
 * at most 50 recipients a message; past the daily quota sendEmail throws "Service invoked too many
 * times for one day: email." and sends nothing. Sent messages are recorded (`rt.mail.sent`), not
 * delivered.
 */
import { QUOTA_MESSAGES } from '../internal/quota';
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

/** One message as the script sent it: every address counted against the day's recipients. */
export interface SentEmail {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** The plain-text body (what clients without HTML show). */
  body: string;
  htmlBody?: string;
  at: number;
  /** Whose quota it spent: the execution's user. */
  user: string;
  executionId: number;
}

/** Google's quotas page, "Current limitations": email recipients per message. */
const PER_MESSAGE = 50;
const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** The runtime's outbox: what was sent, in order. */
export class Outbox {
  readonly sent: SentEmail[] = [];
  /** All recipients of the messages sent (to, cc and bcc, each address once a message). */
  recipients(): number {
    return this.sent.reduce((n, m) => n + new Set([...m.to, ...m.cc, ...m.bcc]).size, 0);
  }
}

const list = (v: unknown): string[] =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function createMailApp(host: Host, realm: Realm, outbox: Outbox) {
  const send = (m: Record<string, unknown>) => {
    host.ensure('mail', 'MailApp.sendEmail', realm);
    host.checkDeadline(realm);
    const [to, cc, bcc] = [list(m.to), list(m.cc), list(m.bcc)];
    const all = [...new Set([...to, ...cc, ...bcc])];
    if (!to.length && !cc.length && !bcc.length) throw realm.exception('Failed to send email: no recipient');
    for (const a of all) if (!ADDRESS.test(a)) throw realm.exception(`Invalid email: ${a}`);
    if (all.length > PER_MESSAGE) throw realm.exception('Limit Exceeded: Email Recipients Per Message.');
    if (!host.quotas.mailRecipients.take(host.clock.now(), all.length))
      throw realm.exception(QUOTA_MESSAGES.mailRecipients);
    const exec = host.current();
    outbox.sent.push({
      to,
      cc,
      bcc,
      subject: String(m.subject ?? ''),
      body: String(m.body ?? ''),
      ...(m.htmlBody === undefined ? {} : { htmlBody: String(m.htmlBody) }),
      at: host.clock.now(),
      user: exec.user,
      executionId: exec.id,
    });
  };
  return {
    sendEmail(...args: unknown[]): void {
      if (args.length === 1 && args[0] && typeof args[0] === 'object') return send(args[0] as Record<string, unknown>);
      const [to, subject, body, options] = args;
      send({ ...((options as Record<string, unknown> | undefined) ?? {}), to, subject, body });
    },
    /** Recipients left today (Google: "the number of remaining emails a user can send for the rest of the day"). */
    getRemainingDailyQuota(): number {
      const now = host.clock.now();
      return Math.max(0, host.limits.mailDailyRecipients - host.quotas.mailRecipients.used(now));
    },
    toString: () => 'MailApp',
  };
}
