/**
 * The endpoints whose answer the service's AI makes for the request (the registry's `makes`: a
 * caption in an account's voice, a DM opener, an image or comment analysis, a lead score, an
 * account summary, a niche analysis) as Zapier create actions, not searches. Zapier's guidelines
 * keep searches for finding what exists ("Find Contact"; nothing found is a valid answer) and
 * offer a step that produces something new as an action, labelled with a verb and the noun of what
 * it makes ("Create ..."; README, "Zapier's published limits and rules"). What follows from it:
 * - an action returns one object, so a target with no public data (private, deleted, nonexistent)
 *   is an error that stops the step (core's sentence, which says it was charged), not "nothing found";
 * - an action's answer is not kept for a replay: a Zap that asks for a caption each day about the
 *   same topic gets a new one each time, and a replay pays again (README, "What a replay costs").
 * Fields, sample and output fields as for a search (searches.ts, outputs.ts).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { DocumentedEndpoint } from '@igdata/core';
import { costRange, costSentence, documentedEndpoints, plural } from '@igdata/core';
import { lookUp } from './client';
import { callOf, paramField } from './fields';
import { outputFieldsOf, twinned } from './outputs';
import { keyOf } from './searches';
import { sampleOf } from './samples';

/** The verb of the registry's description in the third person: "Write" -> "Writes", "Classify" -> "Classifies". */
function thirdPerson(sentence: string): string {
  const [verb, ...rest] = sentence.split(' ');
  const v = /[^aeiou]y$/.test(verb)
    ? `${verb.slice(0, -1)}ies`
    : /(s|sh|ch|x|z)$/.test(verb)
      ? `${verb}es`
      : `${verb}s`;
  return [v, ...rest].join(' ');
}

const article = (noun: string) => (/^[AEIOU]/.test(noun) ? 'an' : 'a');
/** A label's noun inside a sentence: "Lead Score" -> "lead score", "DM Opener" -> "DM opener". */
const nounInText = (noun: string) =>
  noun.replace(/\b([A-Z])([a-z]+)/g, (_, a: string, b: string) => a.toLowerCase() + b);

/** "Creates a caption with AI. Writes captions in an account's own voice... Cost: ..." */
export function createDescription(e: DocumentedEndpoint & { makes: string }): string {
  const [lo, hi] = costRange(e);
  const price = lo === hi ? plural(lo, 'credit') : `${lo}-${hi} credits`;
  const missing =
    ` A private, deleted or nonexistent target stops the step with an error, and the API still charges it ` +
    `(${price}): it did the work.`;
  return (
    `Creates ${article(e.makes)} ${nounInText(e.makes)} with AI. ${thirdPerson(e.description.replace(/\.$/, ''))}. ` +
    `${costSentence(e)}${missing}`
  ).slice(0, 1000);
}

function perform(e: DocumentedEndpoint) {
  return async (z: ZObject, bundle: Bundle): Promise<Record<string, unknown>> => {
    const got = await lookUp(z, bundle, callOf(z, e, bundle));
    return twinned(e, e.shape === 'list' ? { items: got.items } : got.data);
  };
}

function create(e: DocumentedEndpoint & { makes: string }) {
  const sample = sampleOf(e);
  return {
    key: keyOf(e.id),
    noun: e.makes,
    display: { label: `Create ${e.makes}`, description: createDescription(e) },
    operation: {
      inputFields: e.params.filter((p) => p.kind !== 'cursor').map(paramField),
      perform: perform(e),
      sample,
      outputFields: outputFieldsOf(e, sample),
    },
  };
}

export const creates = Object.fromEntries(
  documentedEndpoints
    .filter((e): e is DocumentedEndpoint & { makes: string } => e.makes !== undefined)
    .map((e) => [keyOf(e.id), create(e)]),
);
