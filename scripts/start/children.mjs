// Every process `npm start` started, at any depth (the preview, n8n, n8n's task runner, an n8n CLI
// import still running when the user stops it), by parent pid: `ps` on Linux and macOS. Stopping
// `npm start` ends them all, whatever process group they are in.
import { spawnSync } from 'node:child_process';

/** The pids of `pid`'s descendants, children first. */
export function descendants(pid = process.pid) {
  const r = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  const children = new Map();
  for (const line of r.stdout.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child || child === r.pid) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const out = [];
  for (let queue = [pid]; queue.length;) {
    const next = children.get(queue.shift()) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};

const signal = (pid, sig) => {
  try {
    process.kill(pid, sig);
  } catch {}
};

/** SIGTERM to each of `pids`, then SIGKILL to those still there after `graceMs`. */
export async function endAll(pids, graceMs = 10_000) {
  for (const pid of pids) signal(pid, 'SIGTERM');
  for (const deadline = Date.now() + graceMs; pids.some(alive) && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
}
