#!/usr/bin/env node
// `npm run lint:n8n`: the gates n8n puts between a community package and n8n Cloud users, run on
// a fresh build: n8n's scanner on the packed tarball and the source (scan.mjs), and the official
// `n8n-node lint` in strict mode (lint.mjs). Exit 1 if any fails.
import { build } from '../build/n8n.mjs';
import { lintGate } from './lint.mjs';
import { scanGate } from './scan.mjs';

await build();
const scans = await scanGate();
const lint = lintGate();
process.stdout.write(`\nn8n-node lint (strict): ${lint.passed ? 'passed' : `FAILED (exit ${lint.status})`}\n`);
const ok = scans.every((s) => s.passed) && lint.passed;
process.stdout.write(`n8n gates: ${ok ? 'all passed' : 'FAILED'}\n`);
process.exit(ok ? 0 : 1);
