/**
 * Apps Script's V8 has no WHATWG `URL` (nor does a bare `vm` context). The core's input resolution
 * parses profile and post URLs with `new URL(...)` and reads only `hostname` and `pathname`, so a
 * tiny parser is installed when the global is missing. Imported first by the bundle entry.
 */
class MiniURL {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly href: string;
  constructor(input: string) {
    const m = /^([a-z][a-z0-9+.-]*:)\/\/(?:[^@/?#]*@)?([^:/?#]*)(?::(\d*))?([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(String(input).trim());
    if (!m || !m[2]) throw new TypeError(`Invalid URL: ${input}`);
    this.protocol = m[1].toLowerCase();
    this.hostname = m[2].toLowerCase();
    this.port = m[3] ?? '';
    this.pathname = m[4] || '/';
    this.search = m[5] && m[5] !== '?' ? m[5] : '';
    this.hash = m[6] && m[6] !== '#' ? m[6] : '';
    this.href = `${this.protocol}//${this.hostname}${this.port ? `:${this.port}` : ''}${this.pathname}${this.search}${this.hash}`;
  }
  toString(): string {
    return this.href;
  }
}

const g = globalThis as unknown as { URL?: unknown };
if (typeof g.URL === 'undefined') g.URL = MiniURL;

export {};
