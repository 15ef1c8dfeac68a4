/**
 * The "New Account Change" trigger without meta.zap (src/change.ts): two Zaps of one connection on
 * the same rule and accounts cannot be told apart, so they share one watch, checked once a period for
 * both; over a simulated week of steps (change-week.ts) each Zap still emits each crossing once, and
 * the connection pays one watch's checks.
 */
import type { World } from './zapier-server/world';
import { smallRss, startWorld } from './zapier-server/world';
import { week } from './change-week';

let w: World;
beforeAll(smallRss);
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

test('without meta.zap, two Zaps of one connection: each emits each crossing once; billed = one watch: checks allowed x accounts x the described price', async () => {
  const [one, two] = await week(w, [
    { id: 'zap-b1', sendsZapId: false, offset: 4 },
    { id: 'zap-b2', sendsZapId: false, offset: 11 },
  ]);
  expect(one.emitted).toEqual(two.emitted);
}, 600_000);
