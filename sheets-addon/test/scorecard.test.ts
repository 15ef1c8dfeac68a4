/** A vet row's note from the checks that failed on it (vet/scorecard.ts noteOf), over core's real messages. */
import type { AnyIgError } from '@igdata/core';
import { IgApiError, IgConnectionError, IgValidationError, servedAgain } from '@igdata/core';
import { outcomeCells, readOutcome } from '../src/bulk/outcome';
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

/** A check whose failure was served again from the kept answers, first looked up at `at`. */
const kept = (credits: number, at: number, zone?: (t: number) => number) => {
  const e = servedAgain(missing(credits), at);
  return { message: messageOf(e, undefined, zone), charged: e.charged, lost: e.lostSends, first: e.first };
};
const DEC_1_2330 = Date.UTC(2026, 11, 1, 23, 30);

test('checks served again: free now, with what they cost when first looked up, on the day of the sheet’s zone', () => {
  expect(noteOf([kept(2, DEC_1_2330), kept(3, DEC_1_2330)])).toBe(
    'The target has no public data: private, deleted or nonexistent. ' +
      '(Charged 5 credits for 2 checks when first looked up on 1 Dec; free now.)',
  );
  const berlin = () => 60;
  expect(noteOf([kept(2, DEC_1_2330, berlin)], berlin)).toBe(
    'The target has no public data: private, deleted or nonexistent. ' +
      '(Charged 2 credits for 1 check when first looked up on 2 Dec; free now.)',
  );
  // One check charged now, two served again from different days: what each cost, said once.
  expect(noteOf([failed(missing(4)), kept(2, DEC_1_2330), kept(3, DEC_1_2330 + 2 * 86400000)])).toBe(
    'The target has no public data: private, deleted or nonexistent. ' +
      '(Charged 4 credits for 1 check; 2 checks free now, charged 5 credits when first looked up between 1 Dec and 3 Dec.)',
  );
});

test('a working column written by the version before (code, charged, lost) still reads: no first charge', () => {
  expect(readOutcome(['not_found', 2, 0])).toEqual({ code: 'not_found', charged: 2, lost: 0 });
  expect(readOutcome(['not_found', 0, 0, 2, DEC_1_2330])).toEqual({
    code: 'not_found',
    charged: 0,
    lost: 0,
    first: { charged: 2, at: DEC_1_2330 },
  });
  expect(outcomeCells({ code: 'not_found', charged: 2, lost: 0 }, 3)).toEqual(['not_found', 2, 0]);
});
