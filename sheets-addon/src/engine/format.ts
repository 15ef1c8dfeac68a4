/** Turning a formula's results into what the cell shows: a value or a 2D array. */
import type { ZoneOffset } from '@igdata/core';
import { errorCode } from '@igdata/core';
import type { FormulaArgs } from './args';
import { defaultHeader } from './layout';
import { NOT_REACHED, messageOf, messageRow } from './messages';
import type { PlannedRow } from './rows';
import type { TargetResult } from './walk';
import type { SheetValue } from './values';
import { cellsOf, columnsSeen, failedCells } from './values';

/** The columns: the ones asked for (or the registry's), else every key of the items read. */
function columnsOf(args: FormulaArgs, results: Map<string, TargetResult>): string[] {
  if (args.fields.length) return args.fields;
  return columnsSeen([...results.values()].flatMap((r) => r.items));
}

export function format(
  args: FormulaArgs,
  rows: PlannedRow[],
  results: Map<string, TargetResult>,
  /** The sheet's time zone, for the day an answer served again was first looked up. */
  zoneOffset?: ZoneOffset,
): SheetValue | SheetValue[][] {
  const fields = columnsOf(args, results);
  const width = fields.length;
  const table: SheetValue[][] = [];
  const list = args.endpoint.shape === 'list';
  const stacked = list && args.isRangeInput; // several lists: a first column says whose row it is
  const lead = (label: string, cells: SheetValue[]) => (stacked ? [label, ...cells] : cells);
  for (const row of rows) {
    if (row.kind === 'blank') {
      if (!list) table.push(messageRow('', width));
      continue;
    }
    if (row.kind === 'error') {
      table.push(lead('', failedCells(row.message, row.code, fields)));
      continue;
    }
    const label = args.targetName ? String(row.call.params[args.targetName]) : '';
    const r = results.get(row.key)!;
    // What the row says instead of values: a page not reached in time, a failure, an empty list.
    const message = r.late
      ? NOT_REACHED
      : r.error
        ? messageOf(r.error, r.failedCall ?? row.call, zoneOffset)
        : list && !r.items.length
          ? 'No items.'
          : undefined;
    if (message !== undefined) table.push(lead(label, failedCells(message, r.error ? errorCode(r.error) : '', fields)));
    else for (const item of list ? r.items : [r.items[0]]) table.push(lead(label, cellsOf(item, fields, r.fetchedAt)));
  }
  if (args.header ?? defaultHeader(args.endpoint, args.isRangeInput, width))
    table.unshift(lead(args.targetName as string, fields));
  if (!table.length) return '';
  if (table.length === 1 && table[0].length === 1) return table[0][0];
  return table;
}
