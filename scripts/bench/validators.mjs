#!/usr/bin/env node
// `npm run bench:validators`: what the response-schema validator costs the Sheets bundle, paid on
// every custom-function call. Builds the whole add-on bundle (scripts/build/sheets.mjs's options)
// once per validator, with core's two schema modules (VALIDATOR_MODULES of core's bench entry,
// core/src/bench-entry.ts: the schemas; the checker of a value that lists a schema's field paths)
// replaced by the same schemas written for that library, generated from core's own. Prints each bundle's minified size
// and its evaluation time in a fresh V8 context (median, interleaved rounds). Writes
// node_modules/.cache/validators-bench.json.
//
//   plain        core's schemas as data + core's checker (what ships)
//   zod/mini     zod 4's tree-shakable build (what shipped before: `z.looseObject`, `safeParse`)
//   valibot      valibot 1 (`v.looseObject`, `v.safeParse`)
//   superstruct  superstruct 2 (`type`, `validate`)
import * as esbuild from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import vm from 'node:vm';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBundle } from '../build/sheets.mjs';
import { evalTimes } from './bundle-eval.mjs';
import { load1, saveRecords } from './records.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });

// Core's bench entry: the schemas as data (by name) and the modules to replace.
const BENCH_ENTRY = 'core/src/bench-entry.ts';
const entryOut = join(cache, `bench-entry-${process.pid}.mjs`);
await esbuild.build({
  entryPoints: [join(root, BENCH_ENTRY)],
  outfile: entryOut,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const core = await import(pathToFileURL(entryOut).href);
rmSync(entryOut, { force: true });
const schemas = { ...core.schemas };
const { VALIDATOR_MODULES } = core;
/** A module's path as an esbuild onLoad filter (either separator). */
const fileFilter = (path) =>
  new RegExp(
    `(^|[\\\\/])${path
      .split('/')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\\\/]')}$`,
  );

/**
 * Source of a schemas module for a library: `lib` says how each construct is written. A schema met
 * more than once (optional strings, user summaries) is one const, as a person would write it.
 */
function schemaSource(lib) {
  const seen = new Map();
  const consts = [];
  const uses = new Map();
  const count = (shape) => {
    const key = JSON.stringify(shape);
    uses.set(key, (uses.get(key) ?? 0) + 1);
    if (typeof shape === 'object') {
      if ('array' in shape) count(shape.array);
      else if ('record' in shape) count(shape.record);
      else for (const f of Object.values(shape.object)) countField(f);
    }
  };
  const countField = (f) => {
    if (typeof f === 'object' && 'optional' in f) {
      uses.set(JSON.stringify(f), (uses.get(JSON.stringify(f)) ?? 0) + 1);
      count(f.optional);
    } else if (typeof f === 'object' && 'required' in f) count(f.required);
    else count(f);
  };
  for (const s of Object.values(schemas)) count(s);
  const named = (key, expr) => {
    if ((uses.get(key) ?? 0) < 2 || expr.length < 12) return expr;
    if (!seen.has(key)) {
      const name = `s${seen.size}`;
      seen.set(key, name);
      consts.push(`const ${name} = ${expr};`);
    }
    return seen.get(key);
  };
  const expr = (shape) => {
    const key = JSON.stringify(shape);
    if (typeof shape === 'string') return named(key, lib[shape]);
    if ('array' in shape) return named(key, lib.array(expr(shape.array)));
    if ('record' in shape) return named(key, lib.record(expr(shape.record)));
    const fields = Object.entries(shape.object).map(([k, f]) => `${JSON.stringify(k)}: ${field(f)}`);
    return named(key, lib.object(`{ ${fields.join(', ')} }`));
  };
  const field = (f) => {
    if (typeof f === 'object' && 'required' in f) return expr(f.required);
    if (!(typeof f === 'object' && 'optional' in f)) return expr(f);
    const inner = expr(f.optional);
    return named(JSON.stringify(f), lib.optional(f.nullable ? lib.nullable(inner) : inner));
  };
  const exports = Object.entries(schemas).map(([name, s]) => `export const ${name} = ${expr(s)};`);
  return [lib.imports, ...consts, ...exports].join('\n');
}

const LIBS = {
  'zod/mini': {
    imports: "import * as z from 'zod/mini';",
    string: 'z.string()',
    number: 'z.number()',
    boolean: 'z.boolean()',
    object: (f) => `z.looseObject(${f})`,
    array: (x) => `z.array(${x})`,
    record: (x) => `z.record(z.string(), ${x})`,
    optional: (x) => `z.optional(${x})`,
    nullable: (x) => `z.nullable(${x})`,
    shape: `
export function checkShape(schema, value) {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
}
export function fieldPaths(schema, prefix = '') {
  let def = schema._zod.def;
  while (def.type === 'optional' || def.type === 'nullable') def = def.innerType._zod.def;
  if (def.type !== 'object') return prefix ? [prefix] : [];
  const out = prefix ? [prefix] : [];
  for (const [k, v] of Object.entries(def.shape)) out.push(...fieldPaths(v, prefix ? prefix + '.' + k : k));
  return out;
}`,
  },
  valibot: {
    imports: "import * as v from 'valibot';",
    string: 'v.string()',
    number: 'v.number()',
    boolean: 'v.boolean()',
    object: (f) => `v.looseObject(${f})`,
    array: (x) => `v.array(${x})`,
    record: (x) => `v.record(v.string(), ${x})`,
    optional: (x) => `v.optional(${x})`,
    nullable: (x) => `v.nullable(${x})`,
    shape: `import * as v from 'valibot';
export function checkShape(schema, value) {
  const r = v.safeParse(schema, value);
  return r.success ? [] : r.issues.map((i) => ({ path: (i.path ?? []).map((p) => p.key), message: i.message }));
}
export function fieldPaths(schema, prefix = '') {
  while (schema.type === 'optional' || schema.type === 'nullable') schema = schema.wrapped;
  if (schema.type !== 'loose_object') return prefix ? [prefix] : [];
  const out = prefix ? [prefix] : [];
  for (const [k, s] of Object.entries(schema.entries)) out.push(...fieldPaths(s, prefix ? prefix + '.' + k : k));
  return out;
}`,
  },
  superstruct: {
    imports: "import { array, boolean, nullable, number, optional, record, string, type } from 'superstruct';",
    string: 'string()',
    number: 'number()',
    boolean: 'boolean()',
    object: (f) => `type(${f})`,
    array: (x) => `array(${x})`,
    record: (x) => `record(string(), ${x})`,
    optional: (x) => `optional(${x})`,
    nullable: (x) => `nullable(${x})`,
    shape: `import { validate } from 'superstruct';
export function checkShape(schema, value) {
  const [error] = validate(value, schema);
  return error ? error.failures().map((f) => ({ path: f.path, message: f.message })) : [];
}
export function fieldPaths(schema, prefix = '') {
  if (schema.type !== 'type' || !schema.schema) return prefix ? [prefix] : [];
  const out = prefix ? [prefix] : [];
  for (const [k, s] of Object.entries(schema.schema)) out.push(...fieldPaths(s, prefix ? prefix + '.' + k : k));
  return out;
}`,
  },
};

/** esbuild plugin: core's schema modules replaced by a library's. */
const replaced = (lib) => ({
  name: 'validator',
  setup(b) {
    b.onLoad({ filter: fileFilter(VALIDATOR_MODULES.schemas) }, () => ({
      contents: schemaSource(lib),
      loader: 'js',
      resolveDir: root,
    }));
    // (core's openapi.ts, which the bundle leaves out, is linked all the same: it imports fieldShape.)
    b.onLoad({ filter: fileFilter(VALIDATOR_MODULES.checker) }, () => ({
      contents: `${lib.shape}\nexport const fieldShape = () => { throw new Error('plain schemas only'); };`,
      loader: 'js',
      resolveDir: root,
    }));
  },
});

// Each variant must validate: valid answers pass, broken ones fail (where, exactly, is each library's
// own reading: valibot takes a list for an object, and reports what it lacks), and it lists the same
// field paths. (zod/mini's issues are core's exactly: test/validation.test.ts.)
const CASES = [
  ['profile', { id: '1', username: 'nasa', followers: 10, biography: null, extra: { x: 1 } }],
  ['profile', { username: 'nasa', followers: 'many' }],
  [
    'post',
    { id: '1', shortcode: 'abc', type: 'image', taken_at: 'x', author: null, location: { id: '2', name: 'A', lat: 1 } },
  ],
  ['post', { id: '1', shortcode: 'abc', type: 'image', taken_at: 'x', author: { id: 3, username: 'u' }, location: [] }],
  ['audit', { username: 'u', signal_breakdown: { a: 1, b: 'x' } }],
  ['qualify', { username: 'u', reasons: ['a', 2], signals: null }],
];
async function verdicts(plugins) {
  const out = await esbuild.build({
    stdin: {
      contents: `import { schemas as s, checkShape, fieldPaths } from './${BENCH_ENTRY}';
      globalThis.result = JSON.stringify([${JSON.stringify(CASES)}.map(([name, v]) => checkShape(s[name], v).length > 0), fieldPaths(s.post)]);`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'warning',
    plugins,
  });
  const ctx = vm.createContext({});
  vm.runInContext(out.outputFiles[0].text, ctx);
  return ctx.result;
}
const expected = await verdicts([]);
for (const [name, lib] of Object.entries(LIBS)) {
  const got = await verdicts([replaced(lib)]);
  if (got !== expected)
    throw new Error(`bench:validators: the ${name} variant does not validate as core does:\n${got}\n${expected}`);
}

const bundles = {};
const meta = {};
for (const name of ['plain', ...Object.keys(LIBS)]) {
  const result = await buildBundle(name === 'plain' ? [] : [replaced(LIBS[name])]);
  bundles[name] = result.text;
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  const lib = Object.entries(inputs)
    .filter(([f]) => /node_modules[\\/](zod|valibot|superstruct)[\\/]/.test(f))
    .reduce((n, [, i]) => n + i.bytesInOutput, 0);
  const own = Object.values(VALIDATOR_MODULES).reduce((n, f) => n + (inputs[f]?.bytesInOutput ?? 0), 0);
  meta[name] = { bytes: Buffer.byteLength(bundles[name]), libraryBytes: lib, schemaModuleBytes: own };
}
const loadBefore = load1();
const times = evalTimes(bundles, 40);

const rows = Object.entries(meta).map(([name, m]) => ({
  validator: name,
  bundleKB: Number((m.bytes / 1024).toFixed(1)),
  libraryKB: Number((m.libraryBytes / 1024).toFixed(1)),
  schemasKB: Number((m.schemaModuleBytes / 1024).toFixed(1)),
  evalMsMedian: Number(times[name].medianMs.toFixed(2)),
  evalMsMax: Number(times[name].maxMs.toFixed(2)),
}));
console.log('validator     bundle KB  library KB  schemas+checker KB  eval ms (median, max; fresh V8 context)');
for (const r of rows)
  console.log(
    `${r.validator.padEnd(13)} ${String(r.bundleKB).padStart(9)}  ${String(r.libraryKB).padStart(10)}  ${String(r.schemasKB).padStart(18)}  ${r.evalMsMedian.toFixed(2)}, ${r.evalMsMax.toFixed(2)}`,
  );
writeFileSync(join(cache, 'validators-bench.json'), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
console.log(`\nresults: ${join(cache, 'validators-bench.json')}`);
saveRecords(
  'validators',
  Object.fromEntries(
    rows.flatMap((r) => {
      const k = `validators.${r.validator.replace('/', '-')}`;
      return [
        [
          `${k}.bundle.kb`,
          { value: r.bundleKB, unit: 'KB', what: `the Sheets bundle with ${r.validator} for the response schemas` },
        ],
        [`${k}.library.kb`, { value: r.libraryKB, unit: 'KB', what: `${r.validator}'s own code in that bundle` }],
        [
          `${k}.schemas.kb`,
          { value: r.schemasKB, unit: 'KB', what: `the schemas and the checker (${r.validator}) in that bundle` },
        ],
        [
          `${k}.eval.ms`,
          {
            value: r.evalMsMedian,
            unit: 'ms',
            decimals: 2,
            what: `evaluating that bundle in a fresh V8 context, median of 40, interleaved`,
          },
        ],
      ];
    }),
  ),
  `the add-on bundle built once per validator (scripts/build/sheets.mjs's options); evaluation: 40 interleaved rounds in a fresh V8 context; load average ${loadBefore} at the start, ${load1()} at the end`,
);
