/**
 * README.md's first screen (its first 45 lines) holds what a newcomer needs before scrolling: the
 * two commands (`npm ci && npm start` to run the product on the sandbox, `npm test`), the price
 * (spec §1 and §8: 50 free credits on signup, from 8.00 to 6.00 per 1,000, no subscription) and
 * where to get a key (DASHBOARD_URL, the one place the products name). Reads the file only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DASHBOARD_URL } from '@igdata/core';

const FIRST_SCREEN = 45;
const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

/** What the first screen of `text` lacks, by name; empty when it has it all. */
function firstScreenMisses(text: string): string[] {
  const top = text.split('\n').slice(0, FIRST_SCREEN).join('\n');
  const needs: [string, RegExp][] = [
    ['npm ci && npm start', /^npm ci && npm start\b/m],
    ['npm test', /^npm test\b/m],
    ['50 free credits on signup', /\b50 free credits\b[^.]*\bsign up\b/i],
    ['8.00 per 1,000', /\b8\.00 per 1,000\b/],
    ['6.00 per 1,000', /\b6\.00 per 1,000\b/],
    ['no subscription', /\bno subscription\b/i],
    // "Key: sign up at [igdata.dev](https://igdata.dev)": the word and the dashboard's link close together.
    [
      'where to get the key',
      new RegExp(`\\bkey\\b[\\s\\S]{0,60}\\]\\(${DASHBOARD_URL.replace(/[.]/g, '\\.')}\\)`, 'i'),
    ],
  ];
  return needs.filter(([, re]) => !re.test(top)).map(([name]) => name);
}

test(`the first ${FIRST_SCREEN} lines of README.md hold the two commands, the price and where to get a key`, () => {
  expect(firstScreenMisses(readme)).toEqual([]);
});

test('the check fails when they are pushed below the first screen', () => {
  const pushed = readme.replace(/\n/, `\n${'\n'.repeat(FIRST_SCREEN)}`);
  expect(firstScreenMisses(pushed)).toEqual([
    'npm ci && npm start',
    'npm test',
    '50 free credits on signup',
    '8.00 per 1,000',
    '6.00 per 1,000',
    'no subscription',
    'where to get the key',
  ]);
});
