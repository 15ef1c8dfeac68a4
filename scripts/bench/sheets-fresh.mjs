// Freshness rows of `npm run bench:sheets` (issue 10, point 1): a next-day recalculation of the
// 1,000-row column, answered from the kept answers (the hidden sheet) after the 6-hour cache
// expired. Day 1: the sidebar is opened (it installs the hourly keep trigger) and the formula is
// calculated (600 credits); the clock moves 24 hours (the trigger copies the cached answers to the
// sheet within the first hour, billing nothing); then the same formula again: 0 credits, wall time.
// Then the same with the sheet holding 10,000 answers (the capacity goal): the 600 real ones plus
// 9,400 profile answers of the same shape written by the add-on's own keep code (a probe script).
import * as esbuild from 'esbuild';
import { join } from 'node:path';

const HOUR = 3600000;

const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Whether a recalculation gave day 1's cells: every value the same, every message the same but for
 * its charge note. A message charged on day 1, "... (Charged 1 credit.)", is served again from the
 * kept answers and must say so: "... (Charged 1 credit when first looked up on 1 Dec; free now.)"
 * (core/src/words.ts, chargesNote). Returns how many cells said that, or false on any other change.
 */
function sameAsDay1(out, day1) {
  if (!Array.isArray(out) || out.length !== day1.length) return false;
  let freeNow = 0;
  for (let r = 0; r < day1.length; r++) {
    const a = [day1[r]].flat();
    const b = [out[r]].flat();
    if (a.length !== b.length) return false;
    for (let c = 0; c < a.length; c++) {
      const charged = typeof a[c] === 'string' && /^(.*)\((Charged \d+ credits?)\.\)$/s.exec(a[c]);
      if (!charged) {
        if (JSON.stringify(b[c]) !== JSON.stringify(a[c])) return false;
        continue;
      }
      const [, text, cost] = charged;
      const again = new RegExp(
        `^${escapeRe(text)}\\(${escapeRe(cost)} when first looked up( on [^;]+)?; free now\\.\\)$`,
        's',
      );
      if (typeof b[c] !== 'string' || !again.test(b[c])) return false;
      freeNow++;
    }
  }
  return { freeNow };
}

/** A script of its own, loaded beside the add-on, that adds `n` profile answers to the kept answers. */
function keepProbe(root) {
  const code = `
import { createKeptAnswers, parseRow } from './sheets-addon/src/engine/keep';
import { keptGrid } from './sheets-addon/src/gas/kept-sheet';
export function fill(n) {
  // A real kept profile answer (a found account) is the template.
  const like = [...keptGrid.read().values()].flatMap((r) => [...parseRow(r).values()]).find((a) => a.ok);
  const kept = createKeptAnswers(keptGrid, { now: Date.now, maxAgeMs: 720 * ${HOUR}, writable: true });
  const entries = new Map();
  for (let i = 0; i < n; i++) {
    const data = Object.assign({}, like.data, { id: String(9e10 + i), username: 'bench_creator_' + i, followers: i * 37 });
    entries.set('igd1:bench' + i.toString(36).padStart(40, '0'), Object.assign({}, like, { data: data, at: Date.now() }));
  }
  kept.add(entries);
  return kept.flush();
}`;
  const out = esbuild.buildSync({
    stdin: { contents: code, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'KEEPPROBE',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2020',
    write: false,
    logLevel: 'warning',
  });
  return { name: 'keep-probe.js', code: out.outputFiles[0].text };
}

export async function freshnessRows({ createGasRuntime, sb, key, dist, prod, column, root }) {
  const rt = createGasRuntime({
    files: [join(dist, 'bundle.js'), join(dist, 'Code.js'), keepProbe(root)],
    dir: dist,
    enforceUrlFetchWhitelist: true,
    rewriteUrl: (u) => (u.startsWith(prod) ? sb.url + u.slice(prod.length) : u),
  });
  rt.properties.document.set('IGDATA_API_KEY', key);
  const input = column.map((h) => [h]);
  const formula = () => rt.run('IGPROFILE', [input, 'followers'], { kind: 'custom', cell: 'Sheet1!B2' });

  await sb.reset();
  rt.call('igSidebarState');
  const day1 = formula();
  const day1Credits = (await sb.stats()).creditsBilled;
  rt.advance(24 * HOUR);
  const keep = rt.executions.filter((e) => e.fnName === 'igKeepAnswers');
  const kept = rt.spreadsheet
    .findSheet('IG Data answers')
    .getValues()
    .flat()
    .filter((c) => c !== '');

  const timed = async (label) => {
    await sb.reset();
    const t0 = performance.now();
    const out = formula();
    const ms = Math.round(performance.now() - t0);
    const s = await sb.stats();
    const same = sameAsDay1(out, day1);
    console.log(
      `${label.padEnd(34)} ${String(ms).padStart(6)} ms  ${String(s.total).padStart(5)} requests  ${String(s.creditsBilled).padStart(5)} credits`,
    );
    return {
      label,
      ms,
      requests: s.total,
      credits: s.creditsBilled,
      same: Boolean(same),
      freeNow: same ? same.freeNow : 0,
    };
  };
  const nextDay = await timed('(d) next day, 600 kept answers');
  const added = rt.evaluate('KEEPPROBE.fill(9400)');
  const cells = rt.spreadsheet
    .findSheet('IG Data answers')
    .getValues()
    .flat()
    .filter((c) => c !== '');
  const big = await timed('(d) next day, 10,000 kept answers');
  await rt.close();

  const chars = (list) => list.reduce((n, c) => n + String(c).length, 0);
  const rows = {
    day1Credits,
    keepTrigger: {
      runs: keep.length,
      firstMs: Math.round(keep[0]?.ms ?? 0),
      maxMs: Math.round(Math.max(...keep.map((e) => e.ms))),
    },
    keptSheet600: { cells: kept.length, chars: chars(kept) },
    keptSheet10000: { added, cells: cells.length, chars: chars(cells) },
    nextDay,
    nextDay10000: big,
  };
  console.log(
    `    keep trigger: ${keep.length} runs in 24 h, the first (copying 600 answers) ${rows.keepTrigger.firstMs} ms; kept sheet: ${kept.length} cells, ${(chars(kept) / 1e6).toFixed(2)} M chars (600 answers), ${cells.length} cells, ${(chars(cells) / 1e6).toFixed(2)} M chars (10,000)`,
  );
  const checks = [
    ['(d) day 1: 600 credits', day1Credits === 600, day1Credits],
    [
      '(d) next-day recalculation: 0 credits, same values (messages served again say free now)',
      nextDay.credits === 0 && nextDay.same,
      `${nextDay.credits} credits, same: ${nextDay.same} (${nextDay.freeNow} messages free now)`,
    ],
    [
      '(d) 10,000 kept answers: 0 credits, under 3 s',
      big.credits === 0 && big.same && big.ms < 3000,
      `${big.credits} credits, same: ${big.same}, ${big.ms} ms`,
    ],
  ];
  return { rows, checks };
}
