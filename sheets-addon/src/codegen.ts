/**
 * Generates the Apps Script entry file (dist/Code.js) and the README's function reference from the
 * registry. Apps Script only autocompletes top-level `function NAME()` declarations with
 * `@customfunction` JSDoc, and esbuild drops comments, so this text is written here, not bundled.
 * Runs at build time only (scripts/build/sheets.mjs); nothing here ships in bundle.js.
 */
import type { DocumentedEndpoint, EndpointDef } from '@igdata/core';
// Summaries, descriptions, examples: the registry's docs (core/src/registry/docs.ts), joined to its runtime facts.
import { describeCost, documentedEndpoints, documentedParam, fieldPaths } from '@igdata/core';
import type { ArgSpec } from './engine/layout';
import { MAX_LIMIT, argLayout, defaultHeaderText, targetParam } from './engine/layout';
import { SIDEBAR_API } from './sidebar-api';

const clean = (s: string) => s.replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim();
const q = (v: unknown) => (typeof v === 'number' ? String(v) : `"${String(v).replace(/"/g, '""')}"`);

function exampleField(e: DocumentedEndpoint): string | undefined {
  if (e.exampleField) return e.exampleField;
  const cols = e.columns.filter((c) => !['username', 'id', 'shortcode', 'full_name'].includes(c));
  return cols[0] ?? e.columns[0];
}

/** A formula a user could type, e.g. =IGPROFILE("nasa","followers"). */
function exampleFormula(e: DocumentedEndpoint, range = false): string {
  const args: string[] = [];
  for (const spec of argLayout(e)) {
    if (spec.role === 'target') args.push(range ? 'A2:A100' : q(documentedParam(spec.param!).example ?? 'nasa'));
    else if (spec.role === 'param')
      args.push(spec.param!.required ? q(documentedParam(spec.param!).example ?? spec.param!.default ?? '') : '');
    else if (spec.role === 'fields') args.push(exampleField(e) ? q(exampleField(e)) : '');
    else args.push('');
  }
  while (args.length && args[args.length - 1] === '') args.pop();
  return `=${e.fn}(${args.join(',')})`;
}

function fieldsText(e: DocumentedEndpoint): string {
  const known = fieldPaths(e.schema);
  const dflt = e.columns.length ? e.columns.join(', ') : 'every field of the answer';
  const list = known.length
    ? ` Known fields: ${known.slice(0, 24).join(', ')}${known.length > 24 ? ', ...' : ''}.`
    : '';
  return (
    `Fields to return: a comma list such as ${q(exampleField(e) ?? 'name')} or a range ` +
    `of names (optional; default ${dflt}). One field gives a bare value.${list}`
  );
}

function paramDoc(e: DocumentedEndpoint, spec: ArgSpec): { type: string; text: string } {
  switch (spec.role) {
    case 'target':
      return {
        type: 'string|Array<Array<string>>',
        text:
          `${documentedParam(spec.param!).description}. A single cell or a range (one column): one result ` +
          (e.shape === 'list' ? 'block per target, labelled' : 'row per input row, aligned, blank rows stay blank') +
          '; repeated targets are fetched once.',
      };
    case 'param': {
      const p = documentedParam(spec.param!);
      return {
        type: p.kind === 'integer' ? 'number' : 'string',
        text: `${p.description}${p.required ? '' : ' (optional)'}.`.replace(/\)\.\s*\(optional\)\./, ', optional).'),
      };
    }
    case 'fields':
      return { type: 'string|Array<Array<string>>', text: fieldsText(e) };
    case 'header':
      return {
        type: 'boolean',
        text: `TRUE adds a header row of field names (optional; default ${defaultHeaderText(e)}).`,
      };
    case 'limit':
      return {
        type: 'number',
        text: `How many items per target, 1-${MAX_LIMIT} (optional; default the first page). Every page costs credits.`,
      };
    case 'refresh':
      return {
        type: 'boolean',
        text: 'TRUE fetches again instead of reusing a recent answer (optional; spends credits).',
      };
  }
}

function functionJsDoc(e: DocumentedEndpoint): string {
  const target = targetParam(e);
  const returns =
    e.shape === 'list'
      ? 'A table of items, one row each.'
      : target
        ? 'The fields asked for: one row per target.'
        : 'The fields asked for.';
  const lines = [
    `${clean(e.summary)}. ${clean(e.description)}`,
    `Credits: ${describeCost(e)}${target ? ` for each ${target.name}` : ''}; answers are reused ` +
      `for the sheet's freshness setting (7 days unless changed), so recalculating is free.`,
    `Example: ${exampleFormula(e)}${target ? ` or ${exampleFormula(e, true)}` : ''}`,
    '',
    ...argLayout(e).map((spec) => {
      const d = paramDoc(e, spec);
      return `@param {${d.type}} ${spec.name} ${clean(d.text)}`;
    }),
    `@return ${returns}`,
    '@customfunction',
  ];
  return ['/**', ...lines.map((l) => (l ? ` * ${l}` : ' *')), ' */'].join('\n');
}

function functionStub(e: DocumentedEndpoint): string {
  const names = argLayout(e).map((a) => a.name);
  return (
    `${functionJsDoc(e)}\nfunction ${e.fn}(${names.join(', ')}) {\n  return ` +
    `IGDATA.fn(${JSON.stringify(e.id)}, [${names.join(', ')}]);\n}\n`
  );
}

/** Server functions the sidebar calls with google.script.run (top-level, no trailing underscore). */
export const SERVER_FUNCTIONS: string[] = Object.keys(SIDEBAR_API);

export function generateCode(list: readonly DocumentedEndpoint[] = documentedEndpoints): string {
  const head = `/**
 * IG Data for Google Sheets: the entry file. GENERATED by scripts/build/sheets.mjs from the endpoint
 * registry (core/src/registry/endpoints.ts, docs.ts); do not edit. The logic is in bundle.js (global IGDATA).
 */

/** Adds the IG Data menu (Extensions > IG Data). */
function onOpen(e) {
  IGDATA.onOpen(e);
}

/** Runs when the add-on is installed: the menu appears without reloading. */
function onInstall(e) {
  onOpen(e);
}

/** Opens the IG Data sidebar: API key, base URL, balance and bulk lookups. */
function showSidebar() {
  IGDATA.showSidebar();
}

/**
 * Hourly time-driven trigger: keeps the cached answers, starts scheduled lookups that are due, continues bulk runs in
 * the background.
 */
function igKeepAnswers() {
  return IGDATA.hourly();
}
`;
  const server = SERVER_FUNCTIONS.map(
    (name) => `function ${name}(...args) {\n  return IGDATA.sidebar.${name}(...args);\n}\n`,
  ).join('\n');
  return (
    `${head}\n// ---- Sidebar server functions (google.script.run)\n\n${server}\n// ---- ` +
    `Custom functions, one per endpoint\n\n${list.map(functionStub).join('\n')}`
  );
}

/** The sidebar's endpoint list, written into Sidebar.html by the build. */
export { sidebarEndpoints } from './sidebar-endpoints';

/** The reference's "Reused at most" column: the endpoint's own limit, or the setting's. */
const reuseText = (e: EndpointDef): string =>
  e.maxReuseHours === null ? 'your setting' : e.maxReuseHours === 0 ? 'never' : `${e.maxReuseHours} h`;

/** Markdown reference of every function, for the README. */
export function generateReference(list: readonly DocumentedEndpoint[] = documentedEndpoints): string {
  const rows = list.map((e) => {
    const args = argLayout(e).map((a) => (a.role === 'target' || a.param?.required ? a.name : `[${a.name}]`));
    return (
      `| \`${e.fn}(${args.join(', ')})\` | ${clean(e.summary)} | ${describeCost(e)} ` +
      `| ${reuseText(e)} | \`${exampleFormula(e).replace(/\|/g, '\\|')}\` |`
    );
  });
  return ['| Function | What it returns | Credits | Reused at most | Example |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}
