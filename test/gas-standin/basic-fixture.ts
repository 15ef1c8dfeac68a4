/**
 * The stand-in's own tests run small hand-written files (fixtures/basic) in fresh runtimes against
 * an echo server in a worker thread; this sets both up for a test file and closes them after it.
 */
import path from 'node:path';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { createGasRuntime } from '../../scripts/gas-standin/runtime';
import { TEST_START } from '../support/clock';
import { startEchoServer } from '../../scripts/gas-standin/testServer';

const FIX = path.join(__dirname, 'fixtures', 'basic');
const FILES = [path.join(FIX, 'lib.js'), path.join(FIX, 'Code.js')];

export function basicFixture(closeFirst?: () => Promise<void>) {
  const runtimes: GasRuntime[] = [];
  const fx = {
    server: undefined as unknown as Awaited<ReturnType<typeof startEchoServer>>,
    rt(opts: Partial<Parameters<typeof createGasRuntime>[0]> = {}): GasRuntime {
      const r = createGasRuntime({ files: FILES, startAt: TEST_START, ...opts });
      runtimes.push(r);
      return r;
    },
  };
  beforeAll(async () => {
    fx.server = await startEchoServer();
  });
  afterAll(async () => {
    await closeFirst?.();
    await Promise.all(runtimes.map((r) => r.close()));
    await fx.server.close();
  });
  return fx;
}
