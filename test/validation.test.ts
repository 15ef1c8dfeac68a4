// Response validation is as strict as it was with zod/mini: core's checker (core/src/shape.ts) and
// zod/mini, given the registry's schemas written for zod (toZod below: one zod construct for each
// construct of the plain schemas), find the same issues, in the same order, on generated answers
// (valid ones, and ones with fields missing, null, of another type, or of a type JSON cannot hold);
// the OpenAPI document's response schemas are zod's JSON Schema of them; the field paths the
// Sheets functions accept are what the zod walk found.
import fc from 'fast-check';
import * as z from 'zod/mini';
import type { Field, Shape } from '@igdata/core';
import { buildOpenApi, endpoints, fieldPaths, pathOf } from '@igdata/core';
import { checkShape } from '../core/src/shape';

function toZod(shape: Shape): z.ZodMiniType {
  if (shape === 'string') return z.string();
  if (shape === 'number') return z.number();
  if (shape === 'boolean') return z.boolean();
  if ('array' in shape) return z.array(toZod(shape.array));
  if ('record' in shape) return z.record(z.string(), toZod(shape.record));
  return z.looseObject(Object.fromEntries(Object.entries(shape.object).map(([k, f]) => [k, fieldToZod(f)])));
}
function fieldToZod(f: Field): z.ZodMiniType {
  if (typeof f === 'object' && 'optional' in f)
    return z.optional(f.nullable ? z.nullable(toZod(f.optional)) : toZod(f.optional));
  if (typeof f === 'object' && 'required' in f) return toZod(f.required);
  return toZod(f);
}

/** Values near a shape: mostly right, with every kind of wrong at every depth. */
const wrong = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(Number.NaN),
  fc.constant(Infinity),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 2 }),
);
function near(shape: Shape, depth = 0): fc.Arbitrary<unknown> {
  const right = ((): fc.Arbitrary<unknown> => {
    if (shape === 'string') return fc.string({ maxLength: 4 });
    if (shape === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true });
    if (shape === 'boolean') return fc.boolean();
    if ('array' in shape) return fc.array(near(shape.array, depth + 1), { maxLength: 3 });
    if ('record' in shape)
      return fc.dictionary(fc.string({ maxLength: 3 }), near(shape.record, depth + 1), { maxKeys: 3 });
    const fields = Object.entries(shape.object).map(([k, f]) => {
      const inner = typeof f !== 'object' ? f : 'optional' in f ? f.optional : 'required' in f ? f.required : f;
      // present and near, absent, or null
      return fc.oneof(
        { weight: 6, arbitrary: near(inner, depth + 1).map((v) => [[k, v]]) },
        fc.constant([]),
        fc.constant([[k, null]]),
      );
    });
    return fc
      .tuple(fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }), ...fields)
      .map(([extra, ...kv]) => ({
        ...(extra as object),
        ...Object.fromEntries((kv as [string, unknown][][]).flat()),
      }));
  })();
  return depth > 3 ? right : fc.oneof({ weight: 8, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

const schemas = [...new Map(endpoints.map((e) => [e.schema, e])).values()];
const issues = (found: { path: PropertyKey[]; message: string }[]) =>
  found.map((i) => `${i.path.map(String).join('.')}: ${i.message}`);

describe.each(schemas.map((e) => [e.id, e] as const))('the schema of %s', (_id, e) => {
  const zod = toZod(e.schema);

  it('finds what zod/mini finds, in the same order, on generated answers', () => {
    fc.assert(
      fc.property(near(e.schema), (value) => {
        const z4 = zod.safeParse(value);
        expect(issues(checkShape(e.schema, value))).toEqual(z4.success ? [] : issues(z4.error.issues));
      }),
      { numRuns: 400, seed: 15 },
    );
  });

  it("is zod's JSON Schema in the OpenAPI document", () => {
    const op = (
      buildOpenApi('http://x').paths as Record<
        string,
        {
          get: {
            responses: {
              '200': { content: { 'application/json': { schema: { properties: { data: Record<string, unknown> } } } } };
            };
          };
        }
      >
    )[pathOf(e)].get;
    const data = op.responses['200'].content['application/json'].schema.properties.data;
    const ours = e.shape === 'list' ? (data.properties as { items: { items: unknown } }).items.items : data;
    const theirs = z.toJSONSchema(zod, { unrepresentable: 'any' }) as Record<string, unknown>;
    delete theirs.$schema;
    expect(ours).toEqual(theirs);
  });

  it('lists the field paths the zod walk listed', () => {
    const walk = (schema: z.ZodMiniType, prefix = ''): string[] => {
      let def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
      while (def.type === 'optional' || def.type === 'nullable')
        def = (def.innerType as { _zod: { def: Record<string, unknown> } })._zod.def;
      if (def.type !== 'object') return prefix ? [prefix] : [];
      const out = prefix ? [prefix] : [];
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodMiniType>))
        out.push(...walk(v, prefix ? `${prefix}.${k}` : k));
      return out;
    };
    expect(fieldPaths(e.schema)).toEqual(walk(zod));
  });
});

it('a broken answer is reported at its paths, as users read it', () => {
  const profile = endpoints.find((e) => e.id === 'profile')!.schema;
  expect(issues(checkShape(profile, { username: 'nasa', followers: 'many', brand_new: 1 }))).toEqual([
    'id: Invalid input',
    'followers: Invalid input',
  ]);
  expect(issues(checkShape(profile, []))).toEqual([': Invalid input']);
});
