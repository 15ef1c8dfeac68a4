// ESM entry for scripts and benchmarks; the code lives in runtime.cjs so that jest
// (ts-jest, CommonJS) can require the same helpers without ESM flags.
import { createRequire } from 'node:module';

const rt = createRequire(import.meta.url)('./runtime.cjs');
export const {
  N8N_VERSION,
  N8N_BIN,
  RUNTIME_DIR,
  DEFAULT_ENCRYPTION_KEY,
  POLL_NEVER,
  ensureN8n,
  freePort,
  baseEnv,
  runN8n,
  createN8nHome,
  importCredentials,
  removeN8nHome,
  importWorkflow,
  parseRawOutput,
  nodeOutput,
  runWorkflow,
  query,
  getStaticData,
  getExecutions,
  startN8n,
  startEditor,
  pollTimesEverySeconds,
  publishWorkflow,
  runActive,
  pollOnce,
} = rt;
export default rt;
