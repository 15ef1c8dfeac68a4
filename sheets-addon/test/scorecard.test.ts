/** A vet row's note from the checks that failed on it (vet/scorecard.ts noteOf), over core's real messages. */
import type { AnyIgError } from '@igdata/core';
import { IgApiError, IgConnectionError, IgValidationError } from '@igdata/core';
import { messageOf } from '../src/engine/messages';
import { noteOf } from '../src/vet/scorecard';

/** A check failed with `e`: its message as the run wrote it, and its outcome's numbers. */
const failed = (e: AnyIgError) => ({ message: messageOf(e), charged: e.charged, lost: e.lostSends });
const missing = (credits: number) =>
  new IgApiError(404, 'not_found', 'Not found', { creditsCharged: credits, reason: 'private' });

test('the sentences once, with what the checks cost summed from their outcomes', () => {
  expect(noteOf([failed(missing(2)), failed(missing(3))])).toBe(
    'The target has no public data: private, deleted or nonexistent. (Charged 5 credits for 2 checks.)',
  );
  expect(noteOf([failed(new IgValidationError('handle', 'a username', '"a b"'))])).toBe(
    'handle must be a username; got "a b". (Not charged.)',
  );
  expect(noteOf([])).toBeNull();
});

test('a check that may have been charged for a lost answer: each message as it is (nobody can sum what it cost)', () => {
  const lost = new IgConnectionError('socket hang up', 3);
  lost.lostSends = 1;
  const note = noteOf([failed(missing(2)), failed(lost)]);
  expect(note).toBe(`${messageOf(missing(2))} ${messageOf(lost)}`);
  expect(note).toMatch(/\(Charged 2 credits\.\) .*\(May have been charged\.\)$/);
});
