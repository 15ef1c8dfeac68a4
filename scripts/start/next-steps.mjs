// What to do first on each surface `npm start` opens, in one place: start.mjs prints these lines as
// each surface is ready, and the README's first screen says the same (test/readme-top.test.ts
// checks that it holds each `todo`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The preview's grid holds handles in A1:A8 (a header, then seven: scripts/sheets-preview/server.mjs). */
export const PREVIEW_RANGE = 'A2:A8';

/** The n8n example workflow a newcomer runs first (n8n-node/examples/engagement-for-handles.json). */
export const FIRST_WORKFLOW = 'IG Data: engagement for a list of handles';

/** What `npm run try:zapier` downloads the first time, from its measured record (bench/records/setup.json). */
export function zapierDownload() {
  const file = join(root, 'bench', 'records', 'setup.json');
  const r = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8'))['setup.zapier-cli.mb'] : undefined;
  return r ? `${r.value.toLocaleString('en-US')} ${r.unit}` : null;
}

/** One thing to do on each surface: `todo` is what the README says too. */
export const NEXT_STEPS = {
  preview: {
    todo: `type \`=IGPROFILE(${PREVIEW_RANGE},"followers")\` in B2`,
    more: `or select ${PREVIEW_RANGE} and open "Track these accounts" in the sidebar`,
  },
  n8n: {
    todo: `open *${FIRST_WORKFLOW.replace(/^IG Data: /, '')}* and click *Execute workflow*`,
  },
  zapier: {
    todo: '`npm run try:zapier`',
  },
};

/** A step as a terminal shows it: no Markdown marks. */
const plain = (text) => text.replace(/[`*]/g, '');

/** The lines start.mjs prints, one per surface. */
export const stepLines = {
  preview: (url) => `Sheets preview ${url}  ->  ${plain(NEXT_STEPS.preview.todo)}, ${plain(NEXT_STEPS.preview.more)}`,
  n8n: (url, email, password) =>
    `n8n editor     ${url}  ->  sign in as ${email} / ${password}, open "${FIRST_WORKFLOW}" and click Execute workflow`,
  zapier: () => {
    const size = zapierDownload();
    return `Zapier         ${plain(NEXT_STEPS.zapier.todo)}  ->  the Zapier integration through Zapier's own CLI on a sandbox of its own (first run downloads Zapier's CLI and Node 24 into .cache/${size ? `, ${size}` : ''})`;
  },
};
