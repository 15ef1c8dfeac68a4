// The n8n part of `npm start`: a real n8n editor on localhost with the built n8n-nodes-igdata
// package loaded, a credential "IG Data (sandbox)" pointing at the running sandbox, and the
// example workflows of n8n-node/examples imported. The n8n home is kept in .n8n-data/ (the
// owner account, your edits and executions survive a restart); the credential and the examples
// are re-imported on every start so they follow the sandbox's URL and key.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The CLI's import: into the home before its editor starts (no live server for the few examples).
import { createN8nHome, importWorkflowCli as importWorkflow, startEditor } from './index.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CREDENTIAL = { id: 'igDataSandboxCred', name: 'IG Data (sandbox)', type: 'igDataApi' };
export const EXAMPLES_DIR = join(root, 'n8n-node', 'examples');

export function exampleWorkflows() {
  return readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8')));
}

export const OWNER = { email: 'owner@example.com', password: 'IgData-local-1', firstName: 'Local', lastName: 'Owner' };

async function setupOwner(base, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    }).catch(() => undefined);
    const body = res ? await res.text() : '';
    // 400 "Instance owner already setup" on a kept .n8n-data: the account exists.
    if (res && (res.ok || /already setup/i.test(body))) return { ...OWNER, created: res.ok };
    if (res && res.status !== 404 && res.status < 500)
      throw new Error(`n8n owner setup failed: ${res.status} ${body.slice(0, 300)}`);
    if (Date.now() > deadline)
      throw new Error(`n8n owner setup: no answer after ${timeoutMs} ms (${res?.status ?? 'no response'})`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Starts the editor. Returns { url, email, password, workflows, home, stop() }.
 * `dir` defaults to <repo>/.n8n-data (gitignored).
 */
export async function startN8nEditor({ sandboxUrl, apiKey, port = 5678, dir = join(root, '.n8n-data') }) {
  const home = await createN8nHome({
    dir,
    packageDir: join(root, 'n8n-node'),
    credentials: [{ ...CREDENTIAL, data: { apiKey, baseUrl: sandboxUrl } }],
  });
  const workflows = [];
  for (const wf of exampleWorkflows()) {
    await importWorkflow(home, wf);
    workflows.push(wf.name);
  }
  // The owner account is set up here, not by startEditor: right after /healthz/readiness turns
  // 200, n8n 2.8.4 may not have mounted its REST routes yet (POST /rest/owner/setup answers
  // 404 "Cannot POST"), so this retries for a while.
  // Not detached: in the process group of `npm start`, so a signal to that group (Ctrl+C, a kill of
  // the group) reaches n8n and its task runner too, and none is left running on its own.
  const editor = await startEditor({ home, port, owner: null, detached: false });
  let owner;
  try {
    owner = await setupOwner(`http://127.0.0.1:${editor.port}`);
  } catch (e) {
    await editor.stop();
    throw e;
  }
  return {
    url: editor.url,
    email: owner.email,
    password: owner.password,
    workflows,
    home: home.home,
    pid: editor.pid,
    stop: () => editor.stop(),
  };
}
