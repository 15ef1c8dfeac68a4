/**
 * The built definition against zapier-platform-schema 19.1.0, the schema Zapier checks an
 * integration with: its functions as Zapier's serializer writes them (`$func$<arity>$f$`).
 */
// The package ships no types: its one function, as its README documents it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAppDefinition } = require('zapier-platform-schema') as {
  validateAppDefinition(definition: unknown): { errors: { stack: string }[] };
};
import { app } from './support';

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
