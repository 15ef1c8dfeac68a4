/**
 * The reference pages the sandbox's `error.docs` links point into (§7: "relative link to reference
 * text"): /docs/errors, one anchor per error code, and /docs/endpoints (an unknown path's link).
 * Generated from core (its error table and the sentence each code makes, its registry): one source
 * of truth, so a page cannot say what clients do not do.
 */
import {
  ERROR_DOCS_PATH,
  ERROR_REFERENCE,
  IgApiError,
  costSentence,
  documentedEndpoints,
  pathOf,
  prepare,
  userMessage,
} from '@igdata/core';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string): string =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  '<style>body{font:15px/1.5 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;color:#202124}' +
  'section{border-top:1px solid #e8eaed;padding:.5em 0}code{background:#f1f3f4;padding:0 .2em}' +
  '.said{background:#fef7e0;padding:.4em .6em}</style></head>\n' +
  `<body><h1>${esc(title)}</h1>\n${body}\n</body></html>\n`;

/** Our own codes the sandbox sends outside the table (its HTTP border), linked to the page itself. */
const BORDER_CODES = [
  { code: 'method_not_allowed', status: 405, summary: 'Every endpoint is GET. Not billed.' },
  { code: 'internal_error', status: 500, summary: 'The sandbox failed; please report it. Not billed.' },
];

/** The sentence a user reads for a code (the same in a cell, the sidebar, an n8n item or a Zap). */
function said(code: string, status: number, billed: boolean): string {
  const error = new IgApiError(status, code, code === 'missing_parameter' ? 'handle is required' : code, {
    creditsCharged: billed ? 1 : 0,
    creditsRemaining: code === 'insufficient_credits' ? 0 : undefined,
    attempts: 3,
  });
  return userMessage(error, { keyWhere: 'your settings', call: prepare('profile', { handle: 'nasa' }) });
}

export function errorsPage(): string {
  const rows = ERROR_REFERENCE.map(
    (e) =>
      `<section id="${esc(e.code)}"><h2><code>${esc(e.code)}</code> · HTTP ${e.status}</h2>` +
      `<p>${esc(e.summary)}</p><p>${e.billed ? "Billed at the endpoint's cost." : 'Not billed.'}` +
      `${e.retried ? ' Clients retry it after a backoff.' : ''}` +
      `${e.stopsBulk ? ' A bulk run stops at it: every further request would fail the same way.' : ''}` +
      `${e.source === 'spec' ? '' : e.source === 'observed' ? ' Seen from the service, not in its table.' : ' Our name for an HTTP status the service does not describe.'}</p>` +
      `<p class="said">What you read, e.g. for <code>@nasa</code>: ${esc(said(e.code, e.status, e.billed))}</p></section>`,
  );
  const border = BORDER_CODES.map(
    (e) =>
      `<section id="${e.code}"><h2><code>${e.code}</code> · HTTP ${e.status}</h2><p>${esc(e.summary)}</p></section>`,
  );
  return page(
    'IG Data API errors',
    '<p>An error answer has an HTTP status and a JSON body <code>{"error": {"code", "message", "docs"}, ' +
      '"meta": {"request_id"}}</code>; <code>docs</code> links to the code below.</p>\n' +
      [...rows, ...border].join('\n'),
  );
}

export function endpointsPage(): string {
  const rows = documentedEndpoints.map(
    (e) =>
      `<section id="${esc(e.id)}"><h2><code>GET ${esc(pathOf(e))}</code></h2><p>${esc(e.summary)}. ` +
      `${esc(costSentence(e))}</p></section>`,
  );
  return page(
    'IG Data API endpoints',
    '<p>The machine-readable description is at <a href="/openapi.json">/openapi.json</a>; ' +
      `errors at <a href="${ERROR_DOCS_PATH}">${ERROR_DOCS_PATH}</a>.</p>\n` +
      rows.join('\n'),
  );
}
