/**
 * The README's Zaps that write to a spreadsheet, run as written: the trigger through Zapier's
 * tester on the built integration against the sandbox, posts with hostile captions published in
 * the sandbox, and the recipe's field mapping (the labels zapier/README.md tells users to map, read
 * from the README itself) as the row Google Sheets' *Create Spreadsheet Row* receives. Google
 * Sheets enters those values as if typed (Sheets API `USER_ENTERED`); the Apps Script stand-in's
 * model of typed input (scripts/gas-standin/services/cellInput.ts) says what each cell becomes.
 * Every caption must arrive as the text the author wrote: no formula, no number.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { HOSTILE, asTyped, enteredRow, readmeRecipes, valueAt } from './recipe-support';
import { app, sandbox, tester } from './support';

const MIN = 60_000;
let sb: Sandbox;
let authData: { apiKey: string; baseUrl: string };
beforeAll(async () => {
  ({ sb, authData } = await sandbox());
});
afterAll(() => sb.close());
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  jest.setSystemTime(Date.parse(TEST_START));
});
afterEach(() => jest.useRealTimers());

/** The README's Zaps under "## Three Zaps": a title and its steps' text. */
const readmeZaps = () => readmeRecipes('## Three Zaps');

/** The output fields a recipe maps into the sheet: "map `Author Username`, `Caption (...)` ... to your columns". */
function mappedLabels(text: string): string[] {
  const map = /Create Spreadsheet Row\*; map ([\s\S]*?) to your columns/.exec(text);
  if (!map) throw new Error('the recipe names no mapping into Create Spreadsheet Row');
  return [...map[1].matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, ' '));
}

/** The row as Google Sheets stores it: each mapped value entered as if typed (en_US, UTC). */
const rowOf = (post: Record<string, any>, keys: string[]) => enteredRow(keys.map((k) => valueAt(post, k)));

test('the README has a Zap that writes posts to Google Sheets, and it maps the spreadsheet-safe caption', () => {
  const sheets = readmeZaps().filter((z) => /Google Sheets|CSV/.test(z.text));
  expect(sheets.map((z) => z.title)).toEqual(['A new hashtag post to a Google Sheets row.']);
  expect(mappedLabels(sheets[0].text)).toContain('Caption (safe for spreadsheets)');
  expect(mappedLabels(sheets[0].text)).not.toContain('Caption');
});

test.each(readmeZaps().filter((z) => /Create Spreadsheet Row/.test(z.text)))(
  '"$title": hostile captions reach the sheet as the text their authors wrote',
  async ({ text }) => {
    const trigger = app.triggers.new_post_in_hashtag;
    const labels = mappedLabels(text);
    const keyOfLabel = new Map<string, string>(trigger.operation.outputFields.map((f: any) => [f.label, f.key]));
    const keys = labels.map((l) => {
      expect([l, keyOfLabel.has(l)]).toEqual([l, true]); // every mapped label is an output field of the trigger
      return keyOfLabel.get(l)!;
    });
    const caption = keys[labels.indexOf('Caption (safe for spreadsheets)')];

    // The Zap as the recipe sets it up: turned on (the populating poll), then posts, then a check.
    const t = tester();
    const bundle = (meta: object) =>
      ({
        authData,
        inputData: { tag: '#veganrecipes', every_minutes: 1 },
        meta: { zap: { id: 'z-recipe' }, ...meta },
      }) as any;
    await t(trigger.operation.perform, bundle({ isPopulatingDedupe: true }));
    jest.setSystemTime(Date.parse(TEST_START) + MIN);
    const published = HOSTILE.map((c) => sb.addPosts('veganrecipes', 1, c)[0]);
    jest.setSystemTime(Date.parse(TEST_START) + 3 * MIN);
    const posts: Record<string, any>[] = await t(trigger.operation.perform, bundle({}));
    const byId = new Map(posts.map((p) => [p.id, p]));
    expect(published.every((p) => byId.has(p.id))).toBe(true);

    for (const [i, p] of published.entries()) {
      const row = rowOf(byId.get(p.id)!, keys);
      // The caption cell holds exactly the caption, as text (a lone CR as the twin's line feed); no
      // cell of the row is a formula.
      expect(row[keys.indexOf(caption)]).toEqual({ value: asTyped(HOSTILE[i]) });
      expect(row.filter((c) => c.formula !== undefined)).toEqual([]);
    }
    // What the plain Caption field would have done: a live formula in the user's sheet.
    const plain = rowOf(byId.get(published[0].id)!, ['caption'])[0];
    expect(plain).toEqual({ value: '', formula: HOSTILE[0] });
  },
);
