/**
 * A paid answer that is not in the documented shape (issue 22, item 4), with the *built* add-on in
 * the stand-in against the sandbox: an account added to the sandbox whose profile answers leave out
 * `id` (a field the schema requires). The service bills the answer; the add-on keeps it like any
 * answer, so recalculating shows the same message, saying it is free now, and never pays again.
 */
import { column, sandboxedAddon } from './harness';

const env = sandboxedAddon();

test('a paid answer missing a documented field, recalculated 3 times, is billed once and says so in the cell', async () => {
  await env.sandbox.addAccount({ username: 'shapeless', omit: ['id'], followers: 77 });
  const rt = env.runtime();
  const cells: unknown[] = [];
  for (let i = 0; i < 3; i++)
    cells.push(rt.run('IGPROFILE', ['shapeless', 'followers'], { kind: 'custom', cell: 'Sheet1!B2' }));
  expect(cells[0]).toMatch(
    /^The service answered in an unexpected shape \(data\.id: .+\)\. Please report it with request id \S+\. \(Charged 1 credit\.\)$/,
  );
  const served = String(cells[0]).replace(
    '(Charged 1 credit.)',
    '(Charged 1 credit when first looked up on 25 Nov; free now.)',
  );
  expect(cells.slice(1)).toEqual([served, served]);
  // A range over it, then a sidebar bulk run over it: the kept answer again, no new request.
  const range = rt.run('IGPROFILE', [column(['shapeless', 'nasa']), 'followers'], {
    kind: 'custom',
    cell: 'Sheet1!C2',
  }) as unknown[][];
  expect(range[0][0]).toBe(served);
  expect(typeof range[1][0]).toBe('number');
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ['shapeless']]);
  rt.spreadsheet.select('Sheet1!A2:A2');
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'sheet' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'done', credits: 0, cached: 1 });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 2 }); // shapeless once, nasa once
});
