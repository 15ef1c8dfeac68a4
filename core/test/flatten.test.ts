/** A column's value: `plainField` (no flattening) gives what `pick` over the flattened item gives, whenever it answers. */
import fc from 'fast-check';
import { flatten, pick, plainField } from '../src/flatten';

const key = fc.constantFrom('followers', 'a', 'b', 'a.b', 'author', '__proto__', 'toString', 'id');
const item = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 })) as fc.Arbitrary<Record<string, unknown>>;

test('plainField agrees with pick(item, flatten(item), column), and answers for top-level plain values', () => {
  fc.assert(
    fc.property(item, key, (it, column) => {
      const plain = plainField(it, column);
      if (plain !== undefined) expect(plain).toEqual(pick(it, flatten(it), column));
      const v = Object.prototype.hasOwnProperty.call(it, column) ? it[column] : {};
      if (!column.includes('.') && !(column in Object.prototype) && (v === null || typeof v !== 'object'))
        expect(plain).not.toBeUndefined();
    }),
    { seed: 25, numRuns: 2000 },
  );
});

test('nested, listed and absent columns are left to pick', () => {
  const it = { followers: 5, author: { username: 'nasa' }, tags: ['a', 'b'], gone: null };
  expect([
    plainField(it, 'followers'),
    plainField(it, 'gone'),
    plainField(it, 'author'),
    plainField(it, 'tags'),
    plainField(it, 'author.username'),
    plainField(it, 'missing'),
  ]).toEqual([5, null, undefined, undefined, undefined, undefined]);
});
