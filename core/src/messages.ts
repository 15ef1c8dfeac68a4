/**
 * The sentences users read when something fails, the same in a Sheets cell, the sidebar and an n8n
 * item: what happened, what to do, and whether credits were charged (PRODUCT.md, "Words").
 */
import type { AnyIgError } from './errors';
import type { Call } from './call';

export interface MessageContext {
  /** Where the user sets the key, e.g. "Extensions > IG Data > Settings" or "the IG Data API credential". */
  keyWhere: string;
  /** The call that failed, to name its target ("@nasa", "#veganrecipes"). */
  call?: Call;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const tries = (n = 1) => (n === 1 ? '1 try' : `${n} tries`);
export const chargedNote = (credits: number) => (credits > 0 ? `(Charged ${plural(credits, 'credit')}.)` : '(Not charged.)');

/** How a call's target reads in a sentence. */
export function targetLabel(call?: Call): string {
  if (!call) return 'The target';
  const main = call.endpoint.params.find((p) => p.required && call.params[p.name] !== undefined);
  if (!main) return 'The target';
  const v = String(call.params[main.name]);
  switch (main.kind) {
    case 'handle':
      return /^\d+$/.test(v) ? `Account ${v}` : `@${v}`;
    case 'post':
      return `Post ${v}`;
    case 'tag':
      return `#${v}`;
    case 'location':
      return `Location ${v}`;
    default:
      return `"${v}"`;
  }
}

export function userMessage(error: AnyIgError, ctx: MessageContext): string {
  switch (error.name) {
    case 'IgValidationError':
      return `${error.message} (Not charged.)`;
    case 'IgConnectionError':
      return `Could not reach the service after ${tries(error.attempts)}: ${error.message}. Check the base URL and your connection, then try again. (Not charged.)`;
    case 'IgSchemaError':
      return `The service answered in an unexpected shape (${error.issues[0] ?? error.message}). Please report it with request id ${error.requestId ?? 'unknown'}. ${chargedNote(error.charged)}`;
    case 'IgApiError':
      break;
  }
  const d = error.details;
  switch (error.code) {
    case 'missing_api_key':
      return `No API key is set. Set it in ${ctx.keyWhere}. (Not charged.)`;
    case 'invalid_api_key':
      return `Invalid API key. Set it in ${ctx.keyWhere}. (Not charged.)`;
    case 'insufficient_credits':
      return `Out of credits: ${d.creditsRemaining ?? 0} left. Top up to continue. (Not charged.)`;
    case 'not_found':
      return `${targetLabel(ctx.call)} has no public data: private, deleted or nonexistent. ${chargedNote(error.charged)}`;
    case 'missing_parameter':
      return `The service rejected the request: ${error.message.replace(/\.$/, '')}. ${chargedNote(error.charged)}`;
    case 'upstream_error':
      return `The data provider failed after ${tries(d.attempts)}. Try again later. ${chargedNote(error.charged)}`;
    case 'upstream_timeout':
      return `The data provider timed out after ${tries(d.attempts)}. Try again later. ${chargedNote(error.charged)}`;
    case 'rate_limited':
      return `Too many requests: the service asked to slow down (${tries(d.attempts)}). Try again in a minute. ${chargedNote(error.charged)}`;
    default:
      return `The service answered HTTP ${error.status} (${error.code}): ${error.message.replace(/\.$/, '')}. ${chargedNote(error.charged)}`;
  }
}
