/** Session (who is running) and ScriptApp (auth modes, ids). */
import crypto from 'node:crypto';
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

export const AuthMode = Object.freeze({
  NONE: 'NONE',
  CUSTOM_FUNCTION: 'CUSTOM_FUNCTION',
  LIMITED: 'LIMITED',
  FULL: 'FULL',
});
export const AuthorizationStatus = Object.freeze({ REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' });
/** How the script came to be installed for the user (NONE: it is not running as an add-on, e.g. a bound script). */
export const InstallationSource = Object.freeze({
  APPS_MARKETPLACE_DOMAIN_ADD_ON: 'APPS_MARKETPLACE_DOMAIN_ADD_ON',
  NONE: 'NONE',
  WEB_STORE_ADD_ON: 'WEB_STORE_ADD_ON',
});

function user(email: string) {
  return { getEmail: () => email, getUserLoginId: () => email, toString: () => email };
}

export function createSession(host: Host, realm: Realm) {
  return {
    /** Custom functions run anonymously: the email is empty there. */
    getActiveUser() {
      const exec = host.current();
      if (exec.kind === 'custom') return user('');
      host.ensure('session.email', 'Session.getActiveUser', realm);
      return user(exec.user);
    },
    getEffectiveUser() {
      const exec = host.current();
      if (exec.kind === 'custom') return user('');
      host.ensure('session.email', 'Session.getEffectiveUser', realm);
      return user(exec.user);
    },
    getTemporaryActiveUserKey() {
      const exec = host.current();
      return crypto
        .createHash('sha256')
        .update(`stand-in:${exec.kind === 'custom' ? host.owner : exec.user}`)
        .digest('base64url')
        .slice(0, 43);
    },
    getScriptTimeZone: () => host.timeZone,
    getActiveUserLocale: () => 'en',
    toString: () => 'Session',
  };
}

export function createScriptApp(installationSource: keyof typeof InstallationSource) {
  return {
    AuthMode,
    AuthorizationStatus,
    InstallationSource,
    getInstallationSource: () => InstallationSource[installationSource],
    getScriptId: () => 'stand-in-script-id',
    getOAuthToken: () => 'ya29.stand-in-oauth-token',
    getAuthorizationInfo: () => ({
      getAuthorizationStatus: () => AuthorizationStatus.NOT_REQUIRED,
      getAuthorizationUrl: () => null,
      toString: () => 'AuthorizationInfo',
    }),
    toString: () => 'ScriptApp',
  };
}
