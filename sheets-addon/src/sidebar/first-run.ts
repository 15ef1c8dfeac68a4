// A tracker's or a benchmark's first run, stepped from the sidebar (the same server answer: its
// jobs, one per insight, and whether all are done); if the sidebar closes, the hourly trigger goes on.
import type { Answer } from './api';
import type { ELEMENTS } from './elements';
import { say } from './base';
import { count } from './counts';

type Stepped = Answer<'igTrackerStep'>;

/**
 * Steps until done, saying the progress in `text` ("First run: 3 of 12 rows, 6 credits…"), then `doneText(credits)`
 * with why a job stopped when one did (and its reference link), then `after()` to reload what the run changed.
 */
export function stepFirstRun(o: {
  step: () => Promise<Stepped>;
  text: keyof typeof ELEMENTS;
  unit: string;
  doneText: (credits: string) => string;
  after: () => void;
}): Promise<void> {
  return o.step().then((r) => {
    const credits = count(
      r.jobs.reduce((n, j) => n + (j ? j.credits : 0), 0),
      'credit',
    );
    if (!r.done) {
      const done = r.jobs.reduce((n, j) => n + (j ? j.next : 0), 0);
      const all = r.jobs.reduce((n, j) => n + (j ? j.rows : 0), 0);
      say(o.text, 'First run: ' + done + ' of ' + count(all, o.unit) + ', ' + credits + '\u2026');
      return stepFirstRun(o);
    }
    const stopped = r.jobs.find((j) => j && j.status === 'paused');
    say(
      o.text,
      o.doneText(credits) + (stopped && stopped.message ? ' ' + stopped.message : ''),
      stopped ? 'error' : 'ok',
      stopped ? stopped.docs : undefined,
    );
    o.after();
  });
}
