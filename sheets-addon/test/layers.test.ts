/** The layering rule, checked on the source: only src/gas/ names Apps Script's globals. */
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '..', 'src');
const GLOBALS =
  /\b(SpreadsheetApp|UrlFetchApp|CacheService|LockService|PropertiesService|HtmlService|Session|Utilities|ScriptApp|GoogleAppsScript)\b/;
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? files(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : [],
    );
}

test('Apps Script globals appear only in the adapters (src/gas/)', () => {
  const offenders = files(SRC)
    .filter((f) => !f.startsWith(path.join(SRC, 'gas') + path.sep))
    .flatMap((f) =>
      withoutComments(fs.readFileSync(f, 'utf8'))
        .split('\n')
        .map((line, i) => [f, i + 1, line] as const),
    )
    .filter(([, , line]) => GLOBALS.test(line))
    .map(([f, n, line]) => `${path.relative(SRC, f)}:${n}: ${line.trim()}`);
  expect(offenders).toEqual([]);
});

test('the engine imports nothing from the adapters, the bulk runner or the sidebar API', () => {
  const offenders = files(path.join(SRC, 'engine')).filter((f) =>
    /from '\.\.\/(gas|bulk|sidebar-api)/.test(fs.readFileSync(f, 'utf8')),
  );
  expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
});

test('bulk runs, schedules and the context reach Apps Script only through the context (no import of the adapters)', () => {
  const offenders = ['bulk', 'schedule', 'context']
    .flatMap((d) => files(path.join(SRC, d)))
    .filter((f) => /from '\.\.\/gas\//.test(fs.readFileSync(f, 'utf8')));
  expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
});

test('no module-level mutable state outside the sidebar page: what lives for one execution lives in its context', () => {
  const offenders = files(SRC)
    .filter((f) => !f.startsWith(path.join(SRC, 'sidebar') + path.sep))
    .flatMap((f) =>
      withoutComments(fs.readFileSync(f, 'utf8'))
        .split('\n')
        .map((line, i) => [f, i + 1, line] as const),
    )
    .filter(([, , line]) => /^(export )?(let|var) /.test(line))
    .map(([f, n, line]) => `${path.relative(SRC, f)}:${n}: ${line.trim()}`);
  expect(offenders).toEqual([]);
});

test('values reach cells only through gas/book.ts setCells (text from the API stays text): no other setValues, appendRow or non-empty setValue', () => {
  const offenders = files(SRC)
    .filter((f) => f !== path.join(SRC, 'gas', 'book.ts'))
    .flatMap((f) =>
      withoutComments(fs.readFileSync(f, 'utf8'))
        .split('\n')
        .map((line, i) => [f, i + 1, line] as const),
    )
    .filter(([, , line]) => /\.(setValues|appendRow)\(/.test(line) || /\.setValue\((?!''\))/.test(line))
    .map(([f, n, line]) => `${path.relative(SRC, f)}:${n}: ${line.trim()}`);
  expect(offenders).toEqual([]);
});
