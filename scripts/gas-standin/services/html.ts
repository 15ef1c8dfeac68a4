/** HtmlService: outputs and templates (<?= ?>, <?!= ?>, <? ?> scriptlets) from the loaded files' dir. */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { Realm } from '../internal/realm';
import { BlobImpl } from './blob';

export const SandboxMode = Object.freeze({ EMULATED: 'EMULATED', IFRAME: 'IFRAME', NATIVE: 'NATIVE' });
export const XFrameOptionsMode = Object.freeze({ ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' });

const escapeHtml = (s: unknown) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export class HtmlOutputImpl {
  readonly #realm: Realm;
  #content: string;
  #title = '';
  #width: number | null = null;
  #height: number | null = null;
  #sandbox: string = SandboxMode.IFRAME;
  #xframe: string = XFrameOptionsMode.DEFAULT;
  readonly #meta: { name: string; content: string }[] = [];
  #favicon: string | null = null;

  constructor(realm: Realm, content: string) {
    this.#realm = realm;
    this.#content = content;
  }

  getContent(): string {
    return this.#content;
  }
  setContent(c: unknown): HtmlOutputImpl {
    this.#content = String(c);
    return this;
  }
  append(c: unknown): HtmlOutputImpl {
    this.#content += String(c);
    return this;
  }
  appendUntrusted(c: unknown): HtmlOutputImpl {
    this.#content += escapeHtml(c);
    return this;
  }
  clear(): HtmlOutputImpl {
    this.#content = '';
    return this;
  }
  getTitle(): string {
    return this.#title;
  }
  setTitle(t: unknown): HtmlOutputImpl {
    this.#title = String(t);
    return this;
  }
  getWidth(): number | null {
    return this.#width;
  }
  setWidth(w: unknown): HtmlOutputImpl {
    this.#width = Number(w);
    return this;
  }
  getHeight(): number | null {
    return this.#height;
  }
  setHeight(h: unknown): HtmlOutputImpl {
    this.#height = Number(h);
    return this;
  }
  setSandboxMode(m: unknown): HtmlOutputImpl {
    this.#sandbox = String(m);
    return this;
  }
  getSandboxMode(): string {
    return this.#sandbox;
  }
  setXFrameOptionsMode(m: unknown): HtmlOutputImpl {
    this.#xframe = String(m);
    return this;
  }
  addMetaTag(name: unknown, content: unknown): HtmlOutputImpl {
    this.#meta.push({ name: String(name), content: String(content) });
    return this;
  }
  getMetaTags() {
    return this.#realm.toRealm(this.#meta);
  }
  setFaviconUrl(u: unknown): HtmlOutputImpl {
    this.#favicon = String(u);
    return this;
  }
  getFaviconUrl(): string | null {
    return this.#favicon;
  }
  getBlob(): BlobImpl {
    return new BlobImpl(this.#realm, Buffer.from(this.#content, 'utf8'), 'text/html', null);
  }
  getAs(contentType: string): BlobImpl {
    return this.getBlob().setContentType(contentType);
  }
  asTemplate(): HtmlTemplateImpl {
    return new HtmlTemplateImpl(this.#realm, this.#content);
  }
  /** Host-side summary (for the UI recorder). */
  snapshot() {
    return {
      title: this.#title,
      width: this.#width,
      height: this.#height,
      content: this.#content,
      xframe: this.#xframe,
    };
  }
  toString(): string {
    return 'HtmlOutput';
  }
}

/** Turns template source into the body of a function run in the script's global scope. */
export function compileTemplate(source: string): string {
  let code = "var __o = '';\nwith (__data) {\n";
  const re = /<\?(!?=)?([\s\S]*?)\?>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    if (m.index > last) code += `__o += ${JSON.stringify(source.slice(last, m.index))};\n`;
    const body = m[2].trim();
    if (m[1] === '=') code += `__o += __esc(${body});\n`;
    else if (m[1] === '!=') code += `__o += String(${body});\n`;
    else code += `${m[2]}\n`;
    last = re.lastIndex;
  }
  if (last < source.length) code += `__o += ${JSON.stringify(source.slice(last))};\n`;
  return `${code}}\nreturn __o;`;
}

export class HtmlTemplateImpl {
  readonly #realm: Realm;
  readonly #source: string;
  [key: string]: unknown;

  constructor(realm: Realm, source: string) {
    this.#realm = realm;
    this.#source = source;
  }

  evaluate(): HtmlOutputImpl {
    const data = this.#realm.object(Object.entries(this));
    const fn = vm.runInContext(`(function (__data, __esc) {\n${compileTemplate(this.#source)}\n})`, this.#realm.ctx, {
      filename: 'HtmlTemplate',
    }) as (d: unknown, esc: (s: unknown) => string) => string;
    return new HtmlOutputImpl(this.#realm, fn(data, escapeHtml));
  }

  getCode(): string {
    return compileTemplate(this.#source);
  }

  getCodeWithComments(): string {
    return this.getCode();
  }

  getRawContent(): string {
    return this.#source;
  }

  toString(): string {
    return 'HtmlTemplate';
  }
}

export function readHtmlFile(dir: string, name: string): string | null {
  const candidates = [path.join(dir, `${name}.html`), path.join(dir, name)];
  for (const f of candidates) if (fs.existsSync(f) && fs.statSync(f).isFile()) return fs.readFileSync(f, 'utf8');
  return null;
}

export function createHtmlService(realm: Realm, htmlDir: string) {
  const read = (name: unknown): string => {
    const src = readHtmlFile(htmlDir, String(name));
    if (src === null) throw realm.exception(`No HTML file named ${String(name)} was found.`);
    return src;
  };
  return {
    SandboxMode,
    XFrameOptionsMode,
    createHtmlOutput: (html?: unknown) => new HtmlOutputImpl(realm, html === undefined ? '' : String(html)),
    createHtmlOutputFromFile: (name: unknown) => new HtmlOutputImpl(realm, read(name)),
    createTemplate: (html: unknown) => new HtmlTemplateImpl(realm, String(html)),
    createTemplateFromFile: (name: unknown) => new HtmlTemplateImpl(realm, read(name)),
    getUserAgent: () => 'Mozilla/5.0 (X11; Linux x86_64) stand-in',
    toString: () => 'HtmlService',
  };
}
