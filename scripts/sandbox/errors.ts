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

export const notFound = (message: string, reason = 'not_found') =>
  new HttpFailure(404, 'not_found', message, { reason });
export const badParam = (parameter: string, message: string) =>
  new HttpFailure(400, 'missing_parameter', message, { parameter });
