/** The credit balance, from the free credits endpoint (the sidebar's key test and its balance). */
import { isIgError, prepare, driveSync, send } from '@igdata/core';
import { KEY_WHERE, messageOf } from './messages';
import type { SheetsClient } from './deps';

type BalanceAnswer = { ok: true; balance: number } | { ok: false; message: string; code?: string };

export function readBalance(client: SheetsClient): BalanceAnswer {
  if (!client.config.apiKey)
    return { ok: false, code: 'missing_api_key', message: `No API key is set. Set it in ${KEY_WHERE}.` };
  try {
    const r = driveSync(send(client.config, prepare('credits', {})), client.io);
    const v = r.data.credits_remaining ?? r.creditsRemaining;
    return { ok: true, balance: Number(v) };
  } catch (e) {
    if (isIgError(e))
      return { ok: false, code: e.name === 'IgApiError' ? String(e.code) : undefined, message: messageOf(e) };
    throw e;
  }
}
