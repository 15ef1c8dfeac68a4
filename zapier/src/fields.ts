/** A registry parameter as a Zapier input field, and a step's input as the core's call input. */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, DocumentedEndpoint, DocumentedParam } from '@igdata/core';
import { prepare } from '@igdata/core';
import { asZapierError } from './errors';

export function paramField(p: DocumentedParam) {
  const example = p.example !== undefined ? ` Example: ${p.example}.` : '';
  const range = p.min !== undefined && p.max !== undefined ? ` From ${p.min} to ${p.max}.` : '';
  return {
    key: p.name,
    label: p.name === 'q' ? 'Search Keyword' : p.name[0].toUpperCase() + p.name.slice(1),
    helpText: `${p.description.replace(/\.$/, '')}.${range}${example}`,
    required: p.required,
    type: p.kind === 'integer' ? ('integer' as const) : ('string' as const),
    ...(p.default !== undefined ? { default: String(p.default) } : {}),
  };
}

/** The input Zapier gave, as the core's call input: empty fields left out, so defaults apply. */
export function inputOf(e: DocumentedEndpoint, bundle: Bundle): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const p of e.params) {
    const v = (bundle.inputData as Record<string, unknown>)[p.name];
    if (v !== undefined && v !== null && v !== '') input[p.name] = v;
  }
  return input;
}

/** The step's call, by core's `prepare`: input it refuses is Zapier's error (not sent, not charged). */
export function callOf(z: ZObject, e: DocumentedEndpoint, bundle: Bundle): Call {
  try {
    return prepare(e.id, inputOf(e, bundle));
  } catch (err) {
    throw asZapierError(z, err, undefined);
  }
}

/**
 * A whole-number setting of the step (ours, not the registry's): its value, or `fallback` when it is
 * empty or not in 1..max.
 */
export function wholeNumberOf(bundle: Bundle, key: string, fallback: number, max = Infinity): number {
  const raw = (bundle.inputData as Record<string, unknown>)[key];
  const n = raw === undefined || raw === null || raw === '' ? fallback : Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}
