#!/usr/bin/env node
// `npm run bench:bundle`: the built Sheets bundle's size and its evaluation time in a fresh V8
// context (what every custom-function call pays), and the built Zapier bundle's size (what
// `zapier build` zips with zapier-platform-core), recorded in bench/records/bundle.json. Seconds,
// not minutes: run it after a change that moves a bundle, then `npm run docs`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalTimes } from './bundle-eval.mjs';
import { bundleFigures, load1, saveRecords } from './records.mjs';
import { parseFlags } from '../lib/cli.mjs';

parseFlags({ usage: 'usage: npm run bench:bundle (after npm run build)' });

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, 'sheets-addon', 'dist', 'bundle.js');
const zapierFile = join(root, 'zapier', 'dist', 'index.js');
if (!existsSync(file) || !existsSync(zapierFile)) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const loadBefore = load1();
const bundle = readFileSync(file);
const { medianMs, maxMs } = evalTimes({ bundle: bundle.toString('utf8') }).bundle;
console.log(
  `bundle.js: ${bundle.length} bytes (${(bundle.length / 1024).toFixed(1)} KB), evaluated in ${medianMs.toFixed(2)} ms (median of 30, fresh V8 context; max ${maxMs.toFixed(2)} ms)`,
);
saveRecords(
  'bundle',
  bundleFigures(bundle, medianMs),
  `the built sheets-addon/dist/bundle.js; evaluation: median of 30 in a fresh V8 context; load average ${loadBefore} at the start, ${load1()} at the end`,
);

const zapier = readFileSync(zapierFile);
console.log(`zapier/dist/index.js: ${zapier.length} bytes (${(zapier.length / 1024).toFixed(1)} KB)`);
saveRecords(
  'bundle',
  {
    'bundle.zapier.bytes': {
      value: zapier.length,
      unit: 'bytes',
      what: 'zapier/dist/index.js as built (one CommonJS bundle with core inside, not minified)',
    },
    'bundle.zapier.kb': {
      value: Number((zapier.length / 1024).toFixed(1)),
      unit: 'KB',
      what: 'the same in KB (1,024 bytes)',
    },
  },
  'the built zapier/dist/index.js (npm run build), its size on disk',
);
