// Measured figures in the READMEs and CONTRIBUTING, filled from the bench records
// (bench/records/*.json, written by the benches: scripts/bench/records.mjs). A figure is written
//   <!-- fig:sheets.a.ms -->2,178 ms (2026-11-22)<!-- /fig -->
// and `npm run docs` rewrites what is between the markers from the record: the value, its unit,
// its IQR if it has one, and its date. Options after the key: `nodate` (a table cell, or a figure
// next to another of the same run: the same file must say its date, by a dated figure or a `date` marker),
// `nounit` (the column says it), `noiqr`, `date` (the record's date alone), `commit` (the commit
// it measured alone).
// Each figure appears once in all the documents; other mentions refer to it. A number with a
// unit of time, size, throughput or a ratio outside the markers is a figure with no record and
// fails the check, unless it is a limit or a setting (NOT_MEASURED, below).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DOCUMENTS = [
  'README.md',
  'sheets-addon/README.md',
  'n8n-node/README.md',
  'zapier/README.md',
  'CONTRIBUTING.md',
];

/** Every record by key, from bench/records/<bench>.json (each key starts with its file's name). */
export function loadRecords(root) {
  const dir = join(root, 'bench', 'records');
  const records = new Map();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const bench = name.slice(0, -'.json'.length);
    for (const [key, r] of Object.entries(JSON.parse(readFileSync(join(dir, name), 'utf8')))) {
      if (!key.startsWith(`${bench}.`))
        throw new Error(`bench/records/${name}: key ${key} must start with "${bench}."`);
      for (const field of ['value', 'unit', 'date', 'machine', 'conditions']) {
        if (r[field] === undefined) throw new Error(`bench/records/${name}: ${key} has no ${field}`);
      }
      records.set(key, r);
    }
  }
  return records;
}

const DEFAULT_DECIMALS = { x: 2, KB: 1, µs: 1 };
const number = (v, d) => v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/** A record as text: `2,178 ms (2026-11-22)`, `1.07x (IQR 1.04-1.10)`, `203-211 ms`. */
function render(r, options = []) {
  if (options.includes('date')) return r.date;
  if (options.includes('commit')) return r.commit ?? 'unknown';
  const d = r.decimals ?? DEFAULT_DECIMALS[r.unit] ?? 0;
  const show = (v) => (Array.isArray(v) ? `${number(v[0], d)}-${number(v[1], d)}` : number(v, d));
  const unit = options.includes('nounit') || r.unit === '' ? '' : r.unit === 'x' ? 'x' : ` ${r.unit}`;
  const iqr = r.iqr && !options.includes('noiqr') ? ` (IQR ${show(r.iqr)})` : '';
  const date = options.includes('nodate') ? '' : ` (${r.date})`;
  return `${show(r.value)}${unit}${iqr}${date}`;
}

const MARKER = /<!-- fig:([\w.@-]+)((?: [a-z]+)*) -->([\s\S]*?)<!-- \/fig -->/g;
const OPTIONS = new Set(['nodate', 'nounit', 'noiqr', 'date', 'commit']);

/**
 * Limits and settings the documents state (an Apps Script quota, a time budget, a configured
 * latency): numbers with units that nobody measured, so they need no record. A measured figure
 * never goes here.
 */
const NOT_MEASURED = new Set([
  // Apps Script's limits: execution time, cache item, document properties, the lock's wait
  '30 s',
  '6 min',
  '100 KB',
  '500 KB',
  '9 KB',
  '0.5 s',
  // the add-on's own budgets and sizes: step and formula budgets, claims, cache buckets, the bundle's limits then and now
  '3 s',
  '5 s',
  '10 s',
  '15 s',
  '20 s',
  '270 s',
  '50 ms',
  '90 KB',
  '75 KB',
  '80 KB',
  '92 KB',
  '100 KB',
  '110 KB',
  '115 KB',
  '125 KB',
  // an estimate of what the cache can hold, said as one
  '10 MB',
  // the core's retry backoff
  '500 ms',
  '4 s',
  // latencies the benches and tests set; autocannon's rounds
  '100 ms',
  '150 ms',
  '700 ms',
  '6,000 ms',
  '1 s',
  // the benches' pass marks and the issues' targets
  '1.5 ms',
  '1.15x',
  '2.5x',
  '0.8x',
  '1.1x',
  '1.25x',
  // the rate-limited bench's floor, from its settings (120 requests / 20 in flight x 100 ms)
  '600 ms',
  // the test run's budget (issue 31): one suite's limit
  '120 s',
  // n8n media: the size limit's default, an example message, their product with the default Concurrency
  '25 MB',
  '31 MB',
  '1.25 GB',
  // Zapier's published limits (zapier/README.md's table, each with its source): polling intervals by
  // plan (15 min also the triggers' default period), response and payload sizes, core's stash
  // threshold, the memory guard, ThrottledError's default and most for webhooks
  '1 min',
  '2 min',
  '5 min',
  '15 min',
  '20 MB',
  '6 MB',
  '35 MB',
  '6,291,456 bytes',
  '450 MB',
  '60 s',
  '300 s',
  // the Zapier tests' settings: a slow API's latency per request, what the test computes from it
  // on the integration's clock (3 or 8 pages of 8 s), the Retry-After values a 429 sends
  '8 s',
  '12 s',
  '24 s',
  '64 s',
  '42 s',
  '90 s',
]);

// A number (or range) with a unit of time, size or throughput, or a ratio (1.21x).
const NUMBER = String.raw`\d+(?:,\d{3})*(?:\.\d+)?`;
const FIGURE = new RegExp(
  String.raw`(?<![\w.,-])${NUMBER}(?:-${NUMBER})?(?:x\b| ?(?:ms|µs|s|min|KB|MB|GB|bytes|requests\/s)\b)`,
  'g',
);

// Code: fenced blocks and inline spans (a capture group, so split keeps them at odd indices).
const CODE = /(```[\s\S]*?```|`[^`\n]*`)/;

/** Text with code and filled markers blanked out, lines kept. */
const prose = (text) =>
  text
    .split(CODE)
    .map((part, i) =>
      i % 2 === 1 ? part.replace(/[^\n]/g, ' ') : part.replace(MARKER, (m) => m.replace(/[^\n]/g, ' ')),
    )
    .join('');

/**
 * The documents with every marker filled from the records, and what is wrong: an unknown key or
 * option, a figure given twice, an undated figure whose date no caption says, a figure with no
 * record. `docs`: { path: text }.
 */
export function fillFigures(docs, records) {
  const problems = [];
  const used = new Map();
  const out = {};
  for (const [path, text] of Object.entries(docs)) {
    const dates = new Set();
    const undated = [];
    // Markers in code (an example in backticks) are text, not figures.
    let at = 0;
    out[path] = text
      .split(CODE)
      .map((part, i) => {
        const base = at;
        at += part.length;
        if (i % 2 === 1) return part;
        return part.replace(MARKER, (whole, key, opts, _old, offset) => {
          const options = opts.trim() ? opts.trim().split(' ') : [];
          const where = `${path}:${text.slice(0, base + offset).split('\n').length}`;
          const bad = options.filter((o) => !OPTIONS.has(o));
          const r = records.get(key);
          if (bad.length)
            problems.push(
              `${where}: unknown option ${bad.join(', ')} on fig:${key} (known: ${[...OPTIONS].join(', ')})`,
            );
          if (!r) {
            problems.push(
              `${where}: fig:${key} has no record in bench/records/ (run its bench, or add the record by hand with its date and conditions)`,
            );
            return whole;
          }
          // A date or a commit alone says when or on what a figure was measured, not the figure: it may repeat.
          if (options.includes('date')) dates.add(r.date);
          else if (!options.includes('commit')) {
            if (used.has(key))
              problems.push(
                `${where}: fig:${key} is already given at ${used.get(key)}; refer to it there instead of restating it`,
              );
            used.set(key, where);
            if (options.includes('nodate')) undated.push({ where, key, date: r.date });
            else dates.add(r.date);
          }
          return `<!-- fig:${key}${opts} -->${render(r, options)}<!-- /fig -->`;
        });
      })
      .join('');
    for (const u of undated) {
      if (!dates.has(u.date))
        problems.push(`${u.where}: fig:${u.key} is undated (nodate) but no date marker in ${path} says ${u.date}`);
    }
    prose(text)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(FIGURE)) {
          if (!NOT_MEASURED.has(m[0]))
            problems.push(
              `${path}:${i + 1}: "${m[0]}" is a figure with no record: quote it as <!-- fig:KEY -->...<!-- /fig --> from bench/records/, or drop it`,
            );
        }
      });
  }
  return { docs: out, problems };
}
