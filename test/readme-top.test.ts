/**
 * README.md's first screen (its first 45 lines) holds what a newcomer needs before scrolling: the
 * two commands (`npm ci && npm start` to run the product on the sandbox, `npm test`), the price
 * (spec §1 and §8: 50 free credits on signup, from 8.00 to 6.00 per 1,000, no subscription),
 * where to get a key (DASHBOARD_URL, the one place the products name), what the first start needs
 * (Node, disk, time), the pictures `npm run screenshots` makes (each a PNG that exists, small), and
 * for each surface `npm start` opens the one thing to do there that it prints
 * (scripts/start/next-steps.mjs). Reads files only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DASHBOARD_URL } from '@igdata/core';
import { pngSize } from './support/png';

const FIRST_SCREEN = 45;
const root = path.join(__dirname, '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** What the ESM modules say (read in a child node): each surface's step, the screenshots' pictures. */
const facts: { steps: Record<string, { todo: string }>; pictures: string[] } = JSON.parse(
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const steps = (await import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts/start/next-steps.mjs')).href)})).NEXT_STEPS;
       const pictures = (await import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts/screenshots/run.mjs')).href)})).PICTURES;
       console.log(JSON.stringify({ steps, pictures }));`,
    ],
    { encoding: 'utf8' },
  ).stdout,
);

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
    // What the first start needs: the Node version, the disk and the time, each a measured figure.
    ['the Node version', /\bNode\.js\b[\s\S]{0,40}\b20\.19 or newer/],
    ['the disk', /fig:setup\.node-modules\.mb[\s\S]*fig:setup\.n8n\.mb[\s\S]*fig:setup\.zapier-cli\.mb/],
    ['the minutes', /fig:setup\.npm-ci\.s[\s\S]*fig:setup\.start-preview\.s[\s\S]*fig:setup\.start-n8n\.s/],
    ...facts.pictures.map((p): [string, RegExp] => [
      `picture ${p}`,
      new RegExp(`!\\[[^\\]]+\\]\\(docs/images/${p}\\)`),
    ]),
    ...Object.entries(facts.steps).map(([surface, step]): [string, RegExp] => [
      `the ${surface} step`,
      // as written in Markdown, wrapped anywhere
      new RegExp(step.todo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')),
    ]),
  ];
  return needs.filter(([, re]) => !re.test(top)).map(([name]) => name);
}

test(`the first ${FIRST_SCREEN} lines of README.md hold the two commands, the price, where to get a key, what the first start needs, the pictures and each surface's step`, () => {
  expect(firstScreenMisses(readme)).toEqual([]);
});

test('its pictures are PNGs that exist, a laptop window each, small', () => {
  expect(facts.pictures.length).toBeGreaterThanOrEqual(3);
  for (const p of facts.pictures) {
    const file = path.join(root, 'docs', 'images', p);
    expect([p, pngSize(file)]).toEqual([p, [1280, 800]]);
    expect([p, fs.statSync(file).size < 300 * 1024]).toEqual([p, true]);
  }
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
    'the Node version',
    'the disk',
    'the minutes',
    ...facts.pictures.map((p) => `picture ${p}`),
    ...Object.keys(facts.steps).map((surface) => `the ${surface} step`),
  ]);
});
