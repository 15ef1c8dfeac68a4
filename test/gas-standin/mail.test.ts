/**
 * MailApp in the stand-in (scripts/gas-standin/services/mail.ts): both forms of sendEmail, recipients
 * counted a day against Google's quota (consumer 100 by default) over a rolling 24 hours, refused
 * with Google's sentence before anything is sent, and the scope it needs when scopes are enforced.
 */
import { GasRuntime, createGasRuntime } from '../../scripts/gas-standin/runtime';
import { TEST_START } from '../support/clock';

const HOUR = 3600000;
const EMAIL = 'Service invoked too many times for one day: email.';
const CODE = `
function plain(to, subject, body) { MailApp.sendEmail(to, subject, body); return MailApp.getRemainingDailyQuota(); }
function message(m) { MailApp.sendEmail(m); return MailApp.getRemainingDailyQuota(); }
function left() { return MailApp.getRemainingDailyQuota(); }
function caught(to) { try { MailApp.sendEmail(to, 's', 'b'); return 'sent'; } catch (e) { return String(e.message); } }
function custom() { MailApp.sendEmail('a@example.com', 's', 'b'); }
`;

const runtimes: GasRuntime[] = [];
function rt(opts: Partial<Parameters<typeof createGasRuntime>[0]> = {}): GasRuntime {
  const r = createGasRuntime({
    files: [{ name: 'Code.js', code: CODE }],
    startAt: TEST_START,
    manifest: null,
    ...opts,
  });
  runtimes.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
});

test("recipients a day: 100 by default (a consumer account), each address of a message counted once; past the day sendEmail throws Google's sentence and sends nothing; a recipient frees up 24 hours after", () => {
  const r = rt();
  expect(r.call('left')).toBe(100);
  expect(r.call('plain', 'a@example.com, b@example.com', 'Subject', 'Body\n<b>text</b>')).toBe(98);
  expect(
    r.call('message', { to: 'c@example.com', cc: 'a@example.com', bcc: 'a@example.com', subject: 's', body: 'b' }),
  ).toBe(96);
  expect(r.mail.sent).toHaveLength(2);
  expect(r.mail.sent[0]).toMatchObject({
    to: ['a@example.com', 'b@example.com'],
    subject: 'Subject',
    body: 'Body\n<b>text</b>',
    user: 'owner@example.com',
  });
  expect(r.mail.sent[0].htmlBody).toBeUndefined();
  expect(r.mail.recipients()).toBe(4);
  r.clock.advance(HOUR);
  r.quotas.mailRecipients.add(r.now(), 95); // the user's other scripts sent to 95 people
  expect(r.call('left')).toBe(1);
  expect(r.call('caught', 'x@example.com, y@example.com')).toBe(EMAIL); // two do not fit: nothing is sent
  expect(r.mail.sent).toHaveLength(2);
  expect(r.call('caught', 'x@example.com')).toBe('sent');
  expect(() => r.call('plain', 'z@example.com', 's', 'b')).toThrow(EMAIL);
  // 24 hours after the first message its 4 recipients leave the window; the others (an hour later) not yet.
  r.clock.advance(23 * HOUR);
  expect(r.call('left')).toBe(4);
});

test('a Workspace account (limits.mailDailyRecipients 1,500); bad addresses and more than 50 recipients a message are refused', () => {
  const r = rt({ limits: { mailDailyRecipients: 1500 } });
  expect(r.call('left')).toBe(1500);
  expect(r.call('caught', 'not an address')).toBe('Invalid email: not an address');
  const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`).join(',');
  expect(r.call('caught', many)).toBe('Limit Exceeded: Email Recipients Per Message.');
  expect(r.mail.sent).toHaveLength(0);
  expect(r.call('left')).toBe(1500);
});

test('needs script.send_mail when the manifest lists scopes; custom functions may not send', () => {
  const without = rt({ manifest: { oauthScopes: ['https://www.googleapis.com/auth/spreadsheets.currentonly'] } });
  expect(() => without.call('plain', 'a@example.com', 's', 'b')).toThrow(
    'Required permissions: https://www.googleapis.com/auth/script.send_mail',
  );
  const granted = rt({ manifest: { oauthScopes: ['https://www.googleapis.com/auth/script.send_mail'] } });
  expect(granted.call('plain', 'a@example.com', 's', 'b')).toBe(99);
  expect(() => granted.custom('custom')).toThrow('You do not have permission to call MailApp.sendEmail');
});
