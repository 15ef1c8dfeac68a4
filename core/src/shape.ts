/**
 * Response schemas (registry/schemas.ts, plain data) at run time: checking an answer against one,
 * and the field paths one documents. The checker applies the rules the schemas were written for
 * with zod/mini, which this replaces (test/validation.test.ts checks that both find the same
 * issues, in the same order, on generated answers). Objects are loose: fields a
 * shape does not name pass. A required field must be present with its type; an optional one may be
 * absent (or null when nullable). Numbers are finite. Every issue reads "Invalid input", as
 * zod/mini's did (it ships no messages), after its path.
 */
import type { Field, Shape } from './registry/types';

/** Where a value does not have its shape: the path to it (keys and list indexes) and what is wrong. */
export interface ShapeIssue {
  path: (string | number)[];
  message: string;
}

const INVALID = 'Invalid input';

/** The shape of a field's value, whether the field is optional or not. */
export const valueShape = (f: Field): Shape =>
  typeof f !== 'object' ? f : 'optional' in f ? f.optional : 'required' in f ? f.required : f;

/** The field's shape and whether it may be absent (and null), for objects' fields (openapi.ts). */
export const fieldShape = (f: Field): { shape: Shape; optional: boolean; nullable: boolean } =>
  typeof f === 'object' && 'optional' in f
    ? { shape: f.optional, optional: true, nullable: f.nullable === true }
    : { shape: valueShape(f), optional: false, nullable: false };

/** The issues of `value` against `shape`, in order; none when it has the shape. */
export function checkShape(
  shape: Shape,
  value: unknown,
  path: (string | number)[] = [],
  issues: ShapeIssue[] = [],
): ShapeIssue[] {
  const fail = () => issues.push({ path, message: INVALID });
  if (typeof shape === 'string') {
    if (shape === 'number' ? typeof value !== 'number' || !Number.isFinite(value) : typeof value !== shape) fail();
  } else if ('array' in shape) {
    if (!Array.isArray(value)) fail();
    else value.forEach((v, i) => checkShape(shape.array, v, [...path, i], issues));
  } else if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail();
  } else if ('record' in shape) {
    for (const [k, v] of Object.entries(value)) checkShape(shape.record, v, [...path, k], issues);
  } else {
    const o = value as Record<string, unknown>;
    for (const [k, f] of Object.entries(shape.object)) {
      const v = o[k];
      // An optional field may be absent; a nullable one (optional too) may be null.
      if (typeof f === 'object' && 'optional' in f && (v === undefined || (f.nullable && v === null))) continue;
      checkShape(valueShape(f), v, [...path, k], issues);
    }
  }
  return issues;
}

/**
 * The dotted paths of a schema's media links (fields marked `media`: pictures and videos on the
 * CDN), e.g. `image_url`, `author.profile_pic_url`: the only links products download.
 */
export function mediaFieldPaths(schema: Shape, prefix = ''): string[] {
  if (typeof schema !== 'object' || !('object' in schema)) return [];
  return Object.entries(schema.object).flatMap(([k, f]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return typeof f === 'object' && 'optional' in f && f.media ? [path] : mediaFieldPaths(valueShape(f), path);
  });
}

/**
 * Every dotted field path a schema documents, for validating the fields a user asks for before any
 * request is made. Lists stop the walk (a list is one column). Empty for loose "any object" schemas.
 */
export function fieldPaths(schema: Shape, prefix = ''): string[] {
  const out: string[] = prefix ? [prefix] : [];
  if (typeof schema !== 'object' || !('object' in schema)) return out;
  for (const [k, f] of Object.entries(schema.object))
    out.push(...fieldPaths(valueShape(f), prefix ? `${prefix}.${k}` : k));
  return out;
}
