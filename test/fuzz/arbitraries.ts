/** What users (and Sheets) may hand a custom function or an n8n field, for property-based tests. */
import fc from 'fast-check';

/** One cell as Sheets passes it: text (unicode, URLs of other sites, huge), numbers, booleans, dates, blank. */
export const cellValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'nasa',
        '@NASA',
        'https://www.instagram.com/nasa/',
        'C0ffee12345',
        '#vegan',
        '213385402',
        'followers',
        'username,followers',
        'TRUE',
        '50',
        '',
        ' ',
      ),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 6000 }) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.integer(),
        fc.double(),
        fc.constantFrom(0, -1, 1e300, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity, 2.5),
      ),
    },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: false }) },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
  );

/** A range: rectangular or ragged, sometimes empty. */
export const range = (): fc.Arbitrary<unknown[][]> =>
  fc.array(fc.array(cellValue(), { minLength: 0, maxLength: 3 }), { minLength: 0, maxLength: 4 });

/** A custom function argument: a cell or a range. */
export const argument = (): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 4, arbitrary: cellValue() }, { weight: 1, arbitrary: range() });
