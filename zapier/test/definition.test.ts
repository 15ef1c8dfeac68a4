/**
 * The built definition against zapier-platform-schema 19.1.0, the schema Zapier checks an
 * integration with: its functions as Zapier's serializer writes them (`$func$<arity>$f$`).
 */
// The package ships no types: its one function, as its README documents it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAppDefinition } = require('zapier-platform-schema') as {
  validateAppDefinition(definition: unknown): { errors: { stack: string }[] };
};
import { TWIN_SUFFIX, documentedEndpoints, fieldPaths, spreadsheetSafe } from '@igdata/core';
import { app, tester } from './support';

const serialized = (value: unknown): unknown => {
  if (typeof value === 'function') return `$func$${value.length}$f$`;
  if (Array.isArray(value)) return value.map(serialized);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialized(v)]));
  return value;
};

test('the definition is valid for zapier-platform-schema', () => {
  const result = validateAppDefinition(serialized(app));
  expect(result.errors.map((e: { stack: string }) => e.stack)).toEqual([]);
});

test('a definition the schema must refuse is refused (the check can fail)', () => {
  const broken = serialized(app) as any;
  broken.searches.profile.operation.inputFields[0].type = 'no-such-type';
  delete broken.triggers.new_post_in_hashtag.display.label;
  expect(validateAppDefinition(broken).errors.length).toBeGreaterThanOrEqual(2);
});

/**
 * Zapier's publishing rules that can be checked without its servers (zapier/README.md, "Zapier's
 * published limits and rules", names each rule's source; the rules only Zapier's servers check are
 * listed there too).
 */
describe("Zapier's style and publishing rules, offline", () => {
  type Step = { key: string; noun: string; display: { label: string; description: string }; operation: any };
  const searches = Object.values(app.searches) as Step[];
  const creates = Object.values(app.creates) as Step[];
  const triggers = Object.values(app.triggers) as Step[];
  const all = [...searches, ...creates, ...triggers];
  const SMALL = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);

  test('a search finds what exists: labelled "Find ..." and described "Finds ..."', () => {
    expect(searches.length).toBeGreaterThan(20);
    for (const s of searches) {
      expect(s.display.label).toMatch(/^Find [A-Z]/);
      expect(s.display.description).toMatch(/^Finds /);
    }
  });

  test('what the AI makes is a create: "Create <Noun>", described "Creates ...", the noun the label names', () => {
    const made = documentedEndpoints.filter((e) => e.makes);
    expect(creates.map((c) => c.key).sort()).toEqual(made.map((e) => e.id.replace(/[^a-zA-Z0-9]+/g, '_')).sort());
    for (const c of creates) {
      expect(c.display.label).toBe(`Create ${c.noun}`);
      expect(c.display.description).toMatch(/^Creates (a|an) /);
    }
    // The three kinds the issue names: a caption in an account's voice, an image analysis, a lead score.
    expect(creates.map((c) => c.display.label)).toEqual(
      expect.arrayContaining(['Create Caption', 'Create Image Analysis', 'Create Lead Score']),
    );
  });

  test('a trigger is "New ...", described "Triggers when ..."', () => {
    for (const t of triggers) {
      expect(t.display.label).toMatch(/^New [A-Z]/);
      expect(t.display.description).toMatch(/^Triggers when /);
    }
  });

  test('labels in title case without a final period; descriptions are sentences; every step has a noun', () => {
    const keys = new Set<string>();
    for (const s of all) {
      const words = s.display.label.split(' ');
      words.forEach((w, i) => expect(i > 0 && SMALL.has(w) ? w : w[0]).toMatch(i > 0 && SMALL.has(w) ? /./ : /[A-Z]/));
      expect(s.display.label).not.toMatch(/\.$/);
      expect(s.display.description).toMatch(/\.$/);
      expect(s.display.description.length).toBeLessThanOrEqual(1000);
      expect(s.noun.length).toBeGreaterThan(1);
      for (const f of s.operation.inputFields) {
        expect(f.label).toMatch(/^[A-Z]/);
        expect(f.helpText.length).toBeGreaterThan(10);
      }
      expect(keys.has(s.display.label)).toBe(false);
      keys.add(s.display.label);
    }
  });

  /** A sample's keys as Zapier flattens them: `author__username`, line items `similar[]username`. */
  function zapierKeys(value: unknown, prefix = '', list = false): [string, unknown][] {
    const key = (k: string) => (!prefix ? k : `${prefix}${list ? '[]' : '__'}${k}`);
    if (Array.isArray(value)) {
      const first = value[0];
      return first && typeof first === 'object' && !Array.isArray(first)
        ? zapierKeys(first, prefix, true)
        : [[prefix, value]];
    }
    if (value && typeof value === 'object')
      return Object.entries(value).flatMap(([k, v]) =>
        v && typeof v === 'object' ? zapierKeys(v, key(k)) : ([[key(k), v]] as [string, unknown][]),
      );
    return [[prefix, value]];
  }

  test('every step has one-item sample and labelled output fields covering it; a trigger sample has its id', () => {
    for (const s of all) {
      const { sample, outputFields } = s.operation;
      expect(sample && typeof sample === 'object' && !Array.isArray(sample)).toBe(true);
      expect(Object.keys(sample).length).toBeGreaterThan(0);
      const fields = new Map<string, any>(outputFields.map((f: any) => [f.key, f]));
      expect(fields.size).toBe(outputFields.length); // keys are unique
      for (const f of outputFields) expect(f.label).toMatch(/^[A-Z]/);
      // A key of the sample is a labelled field, an object the sample holds as null (its fields are
      // labelled), or a key of a record (signal_breakdown: any keys; labelled as a whole).
      const covered = (k: string) =>
        fields.has(k) ||
        [...fields.keys()].some((f) => f.startsWith(`${k}__`) || f.startsWith(`${k}[]`) || k.startsWith(`${f}__`));
      for (const [k] of zapierKeys(sample)) expect([s.key, k, covered(k)]).toEqual([s.key, k, true]);
    }
    for (const t of triggers) expect(typeof t.operation.sample.id).toBe('string');
  });

  // docs.zapier.com/platform/build/sample-data: "ISO 8601 standard including time zone offset, even for
  // UTC times" (2023-12-15T01:15:13Z, ...-0800, ...-08:00), or a date alone (2023-12-13).
  const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
  const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
  test('dates are ISO 8601 with an offset, and booleans are real booleans, in every sample', () => {
    let dates = 0;
    for (const s of all) {
      const types = new Map<string, string>(s.operation.outputFields.map((f: any) => [f.key, f.type]));
      for (const [k, v] of zapierKeys(s.operation.sample)) {
        if (types.get(k) === 'datetime' && v !== null) {
          expect([s.key, k, v]).toEqual([s.key, k, expect.stringMatching(ISO_WITH_OFFSET)]);
          dates++;
        }
        if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !DATE_ONLY.test(v))
          expect(v).toMatch(ISO_WITH_OFFSET);
        if (types.get(k) === 'boolean')
          expect([s.key, k, v === null || typeof v === 'boolean']).toEqual([s.key, k, true]);
        expect(['true', 'false', 'True', 'False']).not.toContain(v);
      }
    }
    expect(dates).toBeGreaterThan(10);
  });

  test('each stranger text field has its twin beside it: labelled for spreadsheets, the same text made safe', () => {
    let twins = 0;
    for (const s of all) {
      const sample = new Map(zapierKeys(s.operation.sample));
      for (const f of s.operation.outputFields.filter((f: any) => f.key.endsWith(TWIN_SUFFIX))) {
        const plain = s.operation.outputFields.find((p: any) => p.key === f.key.slice(0, -TWIN_SUFFIX.length));
        expect(f.label).toBe(`${plain.label} (safe for spreadsheets)`);
        const v = sample.get(plain.key);
        if (typeof v === 'string') {
          expect(sample.get(f.key)).toBe(spreadsheetSafe(v));
          twins++;
        }
      }
    }
    expect(twins).toBeGreaterThan(20);
    // No field of the API is named like a twin (a `brand_safe` made the first suffix, `_safe`, ambiguous).
    for (const e of documentedEndpoints)
      expect(fieldPaths(e.schema).filter((p) => p.endsWith(TWIN_SUFFIX))).toEqual([]);
    // The feeds' posts: the caption's twin, the one a Google Sheets row should take.
    const feeds = triggers.filter((t) => t.noun === 'Post');
    expect(feeds.length).toBe(3);
    for (const t of feeds)
      expect(t.operation.outputFields.map((f: any) => f.label)).toContain('Caption (safe for spreadsheets)');
  });

  test('refused input is a helpful error before anything is sent: which field, what was expected, not charged', async () => {
    // Nothing listens there: a step that sent a request would fail otherwise.
    const authData = { apiKey: 'k_offline_test_key', baseUrl: 'http://127.0.0.1:9' };
    const cases: [Step, Record<string, unknown>, RegExp][] = [
      [
        app.searches.insights_profile_engagement,
        { handle: 'nasa', posts: 99 },
        /posts must be a whole number from 1 to 50; got 99\. \(Not charged\.\)/,
      ],
      [
        app.creates.insights_profile_qualify,
        { handle: 'nasa', posts: 0, criteria: 'x' },
        /posts must be a whole number from 1 to 50; got 0/,
      ],
      [app.searches.profile, { handle: 'not a handle!' }, /handle/],
      [app.triggers.new_post_in_hashtag, { tag: '#' }, /tag/],
      [
        app.triggers.new_account_change,
        { accounts: 'nasa', comparison: 'down', threshold: '5', baseline: 'days', days: '0' },
        /baseline: "previous" .* or a number of days from 1 to 365 .*; got "0"\. \(Not charged\.\)/,
      ],
      [app.triggers.new_account_change, { accounts: ' , ', threshold: '5' }, /Accounts is empty/],
    ];
    for (const [s, inputData, message] of cases) {
      const err = await tester()(s.operation.perform, { authData, inputData, meta: {} }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect([s.key, err?.name, err?.message]).toEqual([s.key, 'HaltedError', expect.stringMatching(message)]);
      expect(err!.message).not.toContain(authData.apiKey);
    }
  });
});
