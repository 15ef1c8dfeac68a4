/**
 * Every example a user can copy works against the sandbox, so a future edit cannot break one
 * silently:
 * - every `=IG...(...)` formula in the READMEs and CONTRIBUTING.md, and the `Example:` line of every
 *   generated function's JSDoc (sheets-addon/dist/Code.js, the same text as the function reference),
 *   run through the BUILT add-on in the Apps Script stand-in: no cell may be an error message or
 *   blank. A range argument (A2:A801) is filled with sandbox targets of the function's kind.
 * - every n8n field placeholder ("e.g. nasa, @nasa or https://...") of the built node, sent through
 *   the core for each operation that shows the field.
 * - every `curl` line of the READMEs, with the sandbox's address and key put in.
 * - every n8n example that writes to a sheet or a CSV takes the spreadsheet-safe twin of each
 *   stranger text field (`caption_for_sheets`), never the field itself (the examples run in real
 *   n8n, hostile captions included: test/n8n-node/n8n-examples.test.ts; the Zapier recipes:
 *   zapier/test/recipes.test.ts).
 * Real HTTP against the sandbox in a child process; nothing is stubbed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createClient, documentedParam, endpoints, safeTwinOf, strangerTextPaths } from '@igdata/core';
import type { EndpointDef } from '@igdata/core';
import { argLayout } from '../sheets-addon/src/engine/layout';
import type { GasRuntime } from '../scripts/gas-standin/runtime';
import { DIST, ROOT, SandboxProcess, addonRuntime, startSandbox } from './sheets/harness';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseFormula } = require('../scripts/sheets-preview/formula.js') as { parseFormula: (text: string) => Parsed };

type Arg = { t: 's' | 'n' | 'b' | 'e' | 'r'; v?: unknown; a1?: string };
type Parsed = { name?: string; args?: Arg[]; error?: string };

const DOCS = ['README.md', 'CONTRIBUTING.md', 'sheets-addon/README.md', 'n8n-node/README.md'].filter((f) =>
  fs.existsSync(path.join(ROOT, f)),
);
/** What a cell shows when a row failed (the sentences of @igdata/core's userMessage). */
const ERROR_TEXT = /Not charged|Charged \d+ credit|Not reached|No items|Invalid API key|No API key|has no public data/;

/**
 * Formulas in backticks, e.g. `=IGPROFILE(A2:A801,"followers")`; one documented as an error
 * ("`=IGPROFILE()` says `handle must be ...`") must give exactly that message.
 */
function docFormulas(): [string, string, string?][] {
  const out: [string, string, string?][] = [];
  for (const f of DOCS) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    for (const m of text.matchAll(/`(=IG[A-Z]+\((?:[^`"]|"(?:[^"]|"")*")*\))`(?:\s+says\s+`([^`]+)`)?/g)) {
      out.push(m[2] ? [f, m[1], m[2].replace(/\s+/g, ' ')] : [f, m[1]]);
    }
  }
  return out;
}

/** The JSDoc `Example:` formulas of every generated stub in the built entry file. */
function jsdocFormulas(): [string, string][] {
  const code = fs.readFileSync(path.join(DIST, 'Code.js'), 'utf8');
  const out: [string, string][] = [];
  for (const m of code.matchAll(/Example: (=IG[A-Z]+\(.*?\))(?: or (=IG[A-Z]+\(.*?\)))?\s*$/gm)) {
    out.push(['Code.js', m[1]]);
    if (m[2]) out.push(['Code.js', m[2]]);
  }
  return out;
}

const byFn = new Map(endpoints.map((e) => [e.fn, e]));
let sb: SandboxProcess;
let rt: GasRuntime;
let fixtures: { posts: { nasa_newest: string; nasa_carousel: string } };

beforeAll(async () => {
  sb = await startSandbox();
  rt = addonRuntime(sb.url);
  fixtures = await (await fetch(`${sb.url}/_sandbox/fixtures`)).json();
});
afterAll(async () => {
  await rt?.close();
  await sb?.close();
});

/** Sandbox targets of the kind the function's first argument takes, as users paste them. */
function targetsFor(e: EndpointDef): string[] {
  const t = argLayout(e).find((s) => s.role === 'target')?.param;
  switch (t?.kind) {
    case 'handle':
      // accounts with posts, stories and highlights in the sandbox, spelled the ways people paste them
      return ['nasa', '@Nike', 'https://www.instagram.com/nike/', '@NASA'];
    case 'post':
      return [fixtures.posts.nasa_newest, `https://www.instagram.com/p/${fixtures.posts.nasa_carousel}/`];
    case 'tag':
      return ['veganrecipes', '#vegan'];
    case 'location':
      return ['213385402', '201234964'];
    default:
      return ['coffee', 'vegan'];
  }
}

function rangeValues(a1: string, fill: string[]): unknown[][] {
  const [a, b = a] = a1.split(':');
  const row = (x: string) => Number(/\d+/.exec(x)![0]);
  const rows = row(b) - row(a) + 1;
  return Array.from({ length: rows }, (_, i) => [fill[i % fill.length]]);
}

function runFormula(formula: string): unknown[] {
  const parsed = parseFormula(formula);
  expect(parsed.error).toBeUndefined();
  const e = byFn.get(String(parsed.name).toUpperCase());
  expect(e).toBeDefined();
  const args = parsed.args!.map((a, i) => {
    if (a.t === 'e') return undefined;
    if (a.t !== 'r') return a.v;
    // Only the target may be a range in our examples: fill it as a user's column would be.
    expect(i).toBe(0);
    return rangeValues(a.a1!, targetsFor(e!));
  });
  const out = rt.custom(e!.fn, ...args);
  return Array.isArray(out) ? out.flat() : [out];
}

const formulas = [...docFormulas(), ...jsdocFormulas()].filter((x) => x.length === 2 || x[2] === undefined);
const errorExamples = docFormulas().filter((x): x is [string, string, string] => x[2] !== undefined);

test('the docs and the generated reference have examples to run', () => {
  expect(docFormulas().length).toBeGreaterThanOrEqual(endpoints.length);
  // one or two per function (a single target and a range)
  expect(jsdocFormulas().length).toBeGreaterThanOrEqual(endpoints.length);
  for (const e of endpoints) expect(jsdocFormulas().some(([, f]) => f.startsWith(`=${e.fn}(`))).toBe(true);
});

describe('every documented formula works in the sandbox', () => {
  test.each(formulas.map(([f, x]) => [f, x]))('%s: %s', (_file, formula) => {
    const cells = runFormula(formula);
    expect(cells.filter((v) => typeof v === 'string' && ERROR_TEXT.test(v))).toEqual([]);
    expect(cells.filter((v) => v !== '' && v !== null && v !== undefined).length).toBeGreaterThan(0);
  });
});

test.each(errorExamples)('%s: %s gives the message the docs show', (_file, formula, message) => {
  let got: string;
  try {
    got = String(runFormula(formula).find((v) => typeof v === 'string' && ERROR_TEXT.test(v)) ?? '');
  } catch (e) {
    got = (e as Error).message;
  }
  expect(got).toBe(message);
});

test('an example field shows what the function is for, not a count copied from the profile', () => {
  for (const fn of ['IGENGAGEMENT', 'IGSTATS', 'IGAUDIT', 'IGBESTTIME']) {
    const shown = jsdocFormulas().find(([, f]) => f.startsWith(`=${fn}("`))![1];
    expect([fn, /"(followers|followers_total|posts_analyzed)"/.test(shown)]).toEqual([fn, false]);
  }
});

describe('every n8n field placeholder works for every operation that shows it', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { IgData } = require(path.join(ROOT, 'n8n-node/dist/nodes/IgData/IgData.node.js'));
  const props = new IgData().description.properties as {
    name: string;
    placeholder?: string;
    displayOptions?: { show?: { operation?: string[] } };
  }[];
  const cases = props
    .filter((p) => p.placeholder?.startsWith('e.g. ') && p.displayOptions?.show?.operation)
    .flatMap((p) => {
      // "e.g. nasa, @nasa or https://www.instagram.com/nasa/" -> three values
      const values = p
        .placeholder!.slice(5)
        .split(/, | or /)
        .map((v) => v.trim());
      return p.displayOptions!.show!.operation!.flatMap((op) => values.map((v) => [op, p.name, v] as const));
    });

  test('placeholders exist for the target fields', () => {
    for (const name of ['handle', 'post', 'tag', 'id']) expect(cases.some(([, n]) => n === name)).toBe(true);
  });

  test.each(cases)('%s with %s = %s', async (op, name, value) => {
    const e = endpoints.find((x) => x.id === op)!;
    const input: Record<string, unknown> = { [name]: value };
    // other required parameters of the operation take their own registry example
    for (const p of e.params) if (p.required && p.name !== name) input[p.name] = documentedParam(p).example;
    const client = createClient({ apiKey: sb.demoKey, baseUrl: sb.url, retry: { attempts: 1 } });
    const r = await client.call(op, input);
    expect(r.creditsCharged).toBeGreaterThanOrEqual(0);
    if (e.shape === 'list' && op !== 'profile/stories') expect(r.items.length).toBeGreaterThan(0);
  });
});

describe('every curl line of the READMEs works against the sandbox', () => {
  const lines = DOCS.flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), 'utf8')
      .split('\n')
      .filter((l) => /^\s*curl /.test(l))
      .map((l) => [f, l.trim()] as const),
  );
  test.each(lines)('%s: %s', async (_f, line) => {
    const url = /"(https?:\/\/[^"]+)"/.exec(line)![1].replace(/^http:\/\/(127\.0\.0\.1|localhost):4010/, sb.url);
    const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET';
    const headers: Record<string, string> = {};
    for (const m of line.matchAll(/-H "([^:]+): ([^"]+)"/g))
      headers[m[1]] = m[2].replace(/\$IGDATA_KEY|\$KEY|<demo key>/g, sb.demoKey);
    const res = await fetch(url, { method, headers });
    expect([url, res.status]).toEqual([url, 200]);
  });
});

describe('every n8n example that writes to a sheet or a CSV takes the spreadsheet-safe twins', () => {
  const dir = path.join(ROOT, 'n8n-node', 'examples');
  /** Nodes that put items into a spreadsheet or a CSV file. */
  const writes = (n: { type: string; parameters?: Record<string, unknown> }) =>
    ['n8n-nodes-base.googleSheets', 'n8n-nodes-base.spreadsheetFile', 'n8n-nodes-base.microsoftExcel'].includes(
      n.type,
    ) ||
    (n.type === 'n8n-nodes-base.convertToFile' && ['csv', 'xlsx', 'ods'].includes(String(n.parameters?.operation)));
  /** Stranger text as items name it: whole (`author.full_name`) and simplified the same (flattened). */
  const stranger = new Set(endpoints.flatMap((e) => strangerTextPaths(e.schema)));
  const examples = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: f, wf: JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }))
    .filter(({ wf }) => wf.nodes.some(writes));

  test('the examples that write a sheet or a CSV are found', () => {
    expect(examples.map((e) => e.file)).toContain('hashtag-watch-to-csv.json');
  });

  test.each(examples.map((e) => [e.file, e.wf] as const))('%s', (_file, wf) => {
    const text = JSON.stringify(wf.nodes);
    const refs = [...text.matchAll(/\$json(?:\.([\w.]+)|\[\\?['"]([^'"\\]+)\\?['"]\])/g)].map((m) => m[1] ?? m[2]);
    expect(refs.filter((r) => stranger.has(r))).toEqual([]);
    // and the caption it writes is the twin
    if (refs.some((r) => r.startsWith('caption'))) expect(refs).toContain(safeTwinOf('caption'));
  });
});
