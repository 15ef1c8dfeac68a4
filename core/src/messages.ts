/**
 * The sentences users read when something fails, the same in a Sheets cell, the sidebar and an n8n
 * item: what happened, what to do, and whether credits were charged. The service's codes have
 * their sentence in the error table (error-codes.ts); this file adds our own failures.
 */
import { errorFacts } from './error-codes';
import type { AnyIgError } from './errors';
import type { MessageContext } from './words';
import { NOT_CHARGED, chargedNote, tries } from './words';

export type { MessageContext };

/**
 * The service's reference page for an error it answered (https://…/docs/errors#not_found), on the base URL's origin
 * (base-url.ts docsUrl); undefined for any other failure. The Sheets sidebar links it.
 */
export const docsOf = (error: AnyIgError): string | undefined =>
  error.name === 'IgApiError' ? error.details.docs : undefined;

/**
 * docsOf as a sentence ("More about this error: https://…"), or '': n8n shows it as the error's description, Zapier
 * at the end of its message.
 */
export const docsNote = (error: AnyIgError): string => {
  const docs = docsOf(error);
  return docs ? `More about this error: ${docs}` : '';
};

export function userMessage(error: AnyIgError, ctx: MessageContext): string {
  switch (error.name) {
    case 'IgValidationError':
      return `${error.message} ${NOT_CHARGED}`;
    case 'IgConnectionError':
      // Sent and perhaps answered, or never sent (nothing listening, no such host): call.ts says which.
      return error.lostSends
        ? `No answer from the service after ${tries(error.attempts)}: ` +
            `${error.message}. Try again later. ${chargedNote(error, ctx.zoneOffset)}`
        : `Could not reach the service after ${tries(error.attempts)}: ${error.message}. ` +
            `Check the base URL and your connection, then try again. ${NOT_CHARGED}`;
    case 'IgSchemaError':
      return (
        `The service answered in an unexpected shape (${error.issues[0] ?? error.message}). Please ` +
        `report it with request id ${error.requestId ?? 'unknown'}. ${chargedNote(error, ctx.zoneOffset)}`
      );
    case 'IgQuotaError':
      return `Not sent: ${error.message}. It frees up within 24 hours; try again then. ${NOT_CHARGED}`;
    case 'IgCreditCapError':
      return error.sentence(ctx); // with its class, which only the n8n node's engine makes
    case 'IgApiError': {
      const facts = errorFacts(String(error.code));
      if (facts) return facts.sentence(error, ctx);
      return (
        `The service answered HTTP ${error.status} (${error.code}): ` +
        `${error.message.replace(/\.$/, '')}. ${chargedNote(error, ctx.zoneOffset)}`
      );
    }
  }
}
