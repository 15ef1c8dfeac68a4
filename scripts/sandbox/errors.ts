/**
 * Errors a handler (or cursor check) throws to answer with an API error instead of data. The
 * pipeline bills a 404 (the platform was asked) and nothing else.
 */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (message: string, reason = 'not_found') => new HttpFailure(404, 'not_found', message, { reason });
export const badParam = (parameter: string, message: string) => new HttpFailure(400, 'missing_parameter', message, { parameter });

/** The `docs` link of each error code. */
export const DOCS: Record<string, string> = {
  missing_parameter: '/docs/errors#missing_parameter',
  invalid_api_key: '/docs/errors#invalid_api_key',
  insufficient_credits: '/docs/errors#insufficient_credits',
  not_found: '/docs/errors#not_found',
  upstream_error: '/docs/errors#upstream_error',
  upstream_timeout: '/docs/errors#upstream_timeout',
  method_not_allowed: '/docs/errors',
};
