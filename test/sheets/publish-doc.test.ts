/**
 * The publishing checklist (sheets-addon/README.md, "Publish it") and the manifest cannot drift apart
 * again (it said three scopes for months after script.scriptapp made four): every OAuth scope of
 * sheets-addon/appsscript.json, and of the built sheets-addon/dist/appsscript.json when there is one,
 * has its row in the checklist's scope table with the justification Google's verification asks for;
 * the checklist names no scope the manifest lacks; every "N scopes" it says is the manifest's count;
 * and the urlFetchWhitelist it names is the built one. Reads files only (no build, no sandbox).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const SOURCE = path.join(ROOT, 'sheets-addon', 'appsscript.json');
const BUILT = path.join(ROOT, 'sheets-addon', 'dist', 'appsscript.json');
const README = path.join(ROOT, 'sheets-addon', 'README.md');

type Manifest = { oauthScopes: string[]; urlFetchWhitelist?: string[] };
const manifest = (file: string): Manifest => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The "## Publish it" section of the README, up to the next "## " heading. */
function publishSection(readme: string): string {
  const start = readme.search(/^## Publish it\b/m);
  if (start < 0) throw new Error('sheets-addon/README.md has no "## Publish it" section');
  const rest = readme.slice(start + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The checklist's scope table: rows whose first cell is a scope URL, with their last cell (the justification). */
function scopeRows(section: string): { scope: string; justification: string }[] {
  return section
    .split('\n')
    .filter((l) => /^\|\s*`https:\/\/www\.googleapis\.com\/auth\//.test(l))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      return { scope: cells[0].replace(/`/g, ''), justification: cells.length >= 2 ? cells[cells.length - 1] : '' };
    });
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
/** Every count of scopes the text states ("4 scopes", "four OAuth scopes"), as numbers. */
function statedCounts(text: string): number[] {
  return [...text.matchAll(/\b(\d+|[a-z]+)\s+(?:OAuth\s+)?scopes\b/gi)]
    .map((m) => (/^\d+$/.test(m[1]) ? Number(m[1]) : WORDS.indexOf(m[1].toLowerCase())))
    .filter((n) => n >= 0);
}

/** What the README says against one manifest; empty when they agree. */
function disagreements(readme: string, m: Manifest): string[] {
  const section = publishSection(readme);
  const rows = scopeRows(section);
  const listed = rows.map((r) => r.scope);
  const out: string[] = [];
  for (const s of m.oauthScopes)
    if (!listed.includes(s)) out.push(`the manifest's scope ${s} has no row in the checklist`);
  for (const s of listed)
    if (!m.oauthScopes.includes(s)) out.push(`the checklist lists ${s}, which the manifest does not ask for`);
  for (const s of new Set(listed))
    if (listed.filter((x) => x === s).length > 1) out.push(`the checklist lists ${s} twice`);
  // A justification is the sentence(s) the verification form asks for, not a placeholder.
  for (const r of rows)
    if (r.justification.length < 80) out.push(`${r.scope} has no justification (last cell: "${r.justification}")`);
  // Any full scope URL anywhere in the section (prose too) must be the manifest's.
  for (const [url] of section.matchAll(/https:\/\/www\.googleapis\.com\/auth\/[\w.-]+/g)) {
    if (!m.oauthScopes.includes(url)) out.push(`the section names ${url}, which the manifest does not ask for`);
  }
  const counts = statedCounts(section);
  if (!counts.length) out.push('the section never says how many scopes the manifest asks for');
  for (const n of counts)
    if (n !== m.oauthScopes.length) out.push(`the section says ${n} scopes; the manifest has ${m.oauthScopes.length}`);
  return out;
}

const readme = fs.readFileSync(README, 'utf8');

test('every scope of the manifest has its checklist row and justification, and nothing else is listed', () => {
  const m = manifest(SOURCE);
  expect(m.oauthScopes.length).toBeGreaterThan(0);
  expect(disagreements(readme, m)).toEqual([]);
});

(fs.existsSync(BUILT) ? test : test.skip)(
  'the built manifest (sheets-addon/dist) agrees too, and its urlFetchWhitelist is the one the checklist names',
  () => {
    const built = manifest(BUILT);
    expect([...built.oauthScopes].sort()).toEqual([...manifest(SOURCE).oauthScopes].sort());
    expect(disagreements(readme, built)).toEqual([]);
    const section = publishSection(readme);
    expect(built.urlFetchWhitelist?.length).toBeGreaterThan(0);
    for (const prefix of built.urlFetchWhitelist ?? []) {
      // Google's rules for a versioned deployment: https, a full domain, a non-empty path.
      expect(prefix).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\/\S*$/);
      expect(section).toContain(prefix);
    }
    // The source manifest's template, which the checklist explains.
    for (const prefix of manifest(SOURCE).urlFetchWhitelist ?? []) expect(section).toContain(`\`${prefix}\``);
  },
);

// The checks above must be able to fail: each way the two drift apart is caught.
describe('the check catches drift', () => {
  const m = manifest(SOURCE);
  const section = publishSection(readme);
  const rowOf = (scope: string) => section.split('\n').find((l) => l.startsWith(`| \`${scope}\``)) as string;

  test.each(m.oauthScopes)('a README without the row of %s', (scope) => {
    expect(rowOf(scope)).toBeDefined();
    expect(disagreements(readme.replace(`${rowOf(scope)}\n`, ''), m)).toContain(
      `the manifest's scope ${scope} has no row in the checklist`,
    );
  });

  test('a manifest with one scope more, or one less', () => {
    const extra = 'https://www.googleapis.com/auth/userinfo.email';
    expect(disagreements(readme, { ...m, oauthScopes: [...m.oauthScopes, extra] })).toEqual(
      expect.arrayContaining([
        `the manifest's scope ${extra} has no row in the checklist`,
        `the section says ${m.oauthScopes.length} scopes; the manifest has ${m.oauthScopes.length + 1}`,
      ]),
    );
    const [dropped, ...fewer] = m.oauthScopes;
    expect(disagreements(readme, { ...m, oauthScopes: fewer })).toContain(
      `the checklist lists ${dropped}, which the manifest does not ask for`,
    );
  });

  test('a row whose justification is empty, and a count in words that is wrong', () => {
    const row = rowOf(m.oauthScopes[0]);
    const blank = row.replace(/\|[^|]*\|\s*$/, '| |');
    expect(disagreements(readme.replace(row, blank), m)).toContain(
      `${m.oauthScopes[0]} has no justification (last cell: "")`,
    );
    const wrong = readme.replace(/^## Publish it.*$/m, (h) => `${h}\n\nThe manifest asks for three scopes.`);
    expect(disagreements(wrong, m)).toContain(`the section says 3 scopes; the manifest has ${m.oauthScopes.length}`);
  });
});
