/**
 * Permissions an execution has: what its kind (and a trigger's auth mode) forbids outright, and
 * which manifest oauthScopes a capability needs when scopes are enforced.
 */
import type { Capability, Execution } from './types';
import type { Realm } from './realm';

/** What each kind of execution may not do (Apps Script's rules, simplified). */
const DENIED: Record<string, ReadonlySet<Capability>> = {
  script: new Set(),
  custom: new Set<Capability>([
    'ui.menu',
    'ui.show',
    'properties.write',
    'sheet.write',
    'session.email',
    'triggers',
    'mail',
  ]),
  'trigger:LIMITED': new Set<Capability>(['ui.show', 'urlfetch', 'triggers', 'mail']),
  'trigger:NONE': new Set<Capability>([
    'ui.show',
    'urlfetch',
    'properties.read',
    'properties.write',
    'cache',
    'sheet.read',
    'sheet.write',
    'session.email',
    'lock',
    'triggers',
    'mail',
  ]),
  'trigger:FULL': new Set(),
};

const SCOPE = 'https://www.googleapis.com/auth/';
/** Scopes that allow a capability (any one of them). */
const SCOPES: Partial<Record<Capability, string[]>> = {
  urlfetch: [`${SCOPE}script.external_request`],
  'sheet.read': [`${SCOPE}spreadsheets.currentonly`, `${SCOPE}spreadsheets`],
  'sheet.write': [`${SCOPE}spreadsheets.currentonly`, `${SCOPE}spreadsheets`],
  'ui.show': [`${SCOPE}script.container.ui`],
  'session.email': [`${SCOPE}userinfo.email`],
  triggers: [`${SCOPE}script.scriptapp`],
  mail: [`${SCOPE}script.send_mail`],
};

/** Throws the script-realm exception Apps Script would when `exec` may not use `cap`; `scopes` null = not enforced. */
export function checkPermission(
  exec: Execution,
  cap: Capability,
  what: string,
  realm: Realm,
  scopes: ReadonlySet<string> | null,
): void {
  const key = exec.kind === 'trigger' ? `trigger:${exec.authMode}` : exec.kind;
  if (DENIED[key]?.has(cap)) throw realm.exception(`You do not have permission to call ${what}`);
  const need = SCOPES[cap];
  if (scopes && need && !need.some((s) => scopes?.has(s))) {
    throw realm.exception(`You do not have permission to call ${what}. Required permissions: ${need[0]}`);
  }
}
