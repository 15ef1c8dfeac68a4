/**
 * Embedded charts in the Apps Script stand-in: built, inserted, listed, updated and removed by a
 * hand-written script (fixtures/charts) the way the add-on draws its growth chart; refused from a
 * custom function; the model a test or the preview reads (sheet.charts, view()) follows the cells.
 */
import path from 'node:path';
import { createGasRuntime, GasRuntime } from '../../scripts/gas-standin/runtime';
import { TEST_START } from '../support/clock';

const FILES = [path.join(__dirname, 'fixtures', 'charts', 'Code.js')];
const runtimes: GasRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
});

/** A runtime with a History sheet: header row, 30 dates in column A, five series in B:F. */
function withHistory(): GasRuntime {
  const r = createGasRuntime({ files: FILES, startAt: TEST_START });
  runtimes.push(r);
  const rows = Array.from({ length: 30 }, (_, i) => [
    new Date(Date.UTC(2026, 0, 1 + i)),
    ...[1, 2, 3, 4, 5].map((s) => s * 1000 + i),
  ]);
  r.spreadsheet.addSheet('History').setValues('A1', [['date', 'nasa', 'esa', 'jaxa', 'isro', 'cnsa'], ...rows]);
  return r;
}

describe('embedded charts', () => {
  test('build and insert: the model holds type, live ranges, headers, position and options', () => {
    const r = withHistory();
    expect(r.call('growthChart', 'History')).toEqual({ before: null, id: 1, count: 1 });
    const [chart] = r.spreadsheet.sheet('History').charts;
    expect(chart.view()).toMatchObject({
      id: 1,
      type: 'line',
      ranges: ['A1:F31'],
      sheets: ['History'],
      numHeaders: 1,
      position: { row: 2, col: 8, offsetX: 0, offsetY: 0 },
      options: {
        title: 'followers over time',
        hAxis: { title: 'date' },
        vAxis: { title: 'followers' },
        legend: { position: 'right' },
      },
    });
    expect(chart.values()[0][0]).toEqual(['date', 'nasa', 'esa', 'jaxa', 'isro', 'cnsa']);
    expect(chart.values()[0][30]).toEqual([new Date(Date.UTC(2026, 0, 30)), 1029, 2029, 3029, 4029, 5029]);
    // the chart keeps its range, not a copy: it shows what the cells hold now
    r.spreadsheet.sheet('History').setValues('B2', [[777]]);
    expect(chart.view().values[0][1][1]).toBe(777);
    expect(r.spreadsheet.sheet('Sheet1').charts).toEqual([]);
    // a chart's title and labels are on show like cells: findSecret looks there too
    expect(r.findSecret('followers over time')).toEqual(['chart History#1 options']);
  });

  test('getCharts and EmbeddedChart read back what was built', () => {
    const r = withHistory();
    r.call('growthChart', 'History');
    expect(r.call('listCharts', 'History')).toEqual({
      isArray: true,
      charts: [
        {
          id: 1,
          type: 'LINE',
          ranges: ['A1:F31'],
          firstSeries: ['nasa', 1000, 1001],
          headers: 1,
          title: 'followers over time',
          xTitle: 'date',
          legend: { position: 'right' },
          legendPosition: 'right',
          missing: null,
          anchor: [2, 8, 0, 0],
        },
      ],
    });
  });

  test('modify + updateChart replaces the chart in place; removeChart removes every chart', () => {
    const r = withHistory();
    r.call('growthChart', 'History');
    r.call('growthChart', 'History');
    expect(r.spreadsheet.sheet('History').charts.map((c) => c.id)).toEqual([1, 2]);
    expect(r.call('retarget', 'History', 'A1:B10')).toBe(2);
    const views = r.spreadsheet.sheet('History').charts.map((c) => c.view());
    expect(views.map((v) => [v.id, v.ranges, v.options.title, v.position.row, v.position.col])).toEqual([
      [1, ['A1:B10'], 'retargeted', 5, 2],
      [2, ['A1:B10'], 'retargeted', 5, 2],
    ]);
    // what modify() did not touch stays
    expect(views[0].options.legend).toEqual({ position: 'right' });
    expect(r.call('removeAll', 'History')).toBe(0);
    expect(r.spreadsheet.sheet('History').charts).toEqual([]);
  });

  test('setChartType(Charts.ChartType.COLUMN); a range added twice counts once', () => {
    const r = withHistory();
    expect(r.call('columnChart', 'History')).toEqual({ type: 'COLUMN', ranges: 1 });
    expect(r.spreadsheet.sheet('History').charts[0].view()).toMatchObject({
      type: 'column',
      ranges: ['A1:B4'],
      numHeaders: -1,
      options: { title: 'cols' },
    });
  });

  test('rows inserted above or inside the data move and grow the chart range, and move its anchor', () => {
    const r = withHistory();
    r.call('growthChart', 'History');
    r.call('insertRowsAfter', 'History', 1, 2);
    expect(r.spreadsheet.sheet('History').charts[0].view()).toMatchObject({
      ranges: ['A1:F33'],
      position: { row: 4, col: 8 },
    });
    r.call('insertRowsAfter', 'History', 40, 5); // below: nothing moves
    expect(r.spreadsheet.sheet('History').charts[0].view()).toMatchObject({ ranges: ['A1:F33'], position: { row: 4 } });
  });

  test('custom functions may not insert, update or remove charts', () => {
    const r = withHistory();
    expect(() => r.run('growthChart', ['History'], { kind: 'custom' })).toThrow(
      'You do not have permission to call insertChart',
    );
    expect(r.spreadsheet.sheet('History').charts).toEqual([]);
    r.call('growthChart', 'History');
    expect(() => r.run('retarget', ['History', 'A1:B2'], { kind: 'custom' })).toThrow(
      'You do not have permission to call updateChart',
    );
    expect(() => r.run('removeAll', ['History'], { kind: 'custom' })).toThrow(
      'You do not have permission to call removeChart',
    );
    // reading is allowed
    expect(r.run('listCharts', ['History'], { kind: 'custom' }).charts).toHaveLength(1);
    expect(r.spreadsheet.sheet('History').charts).toHaveLength(1);
  });

  test('misuse fails with a clear error', () => {
    const r = withHistory();
    r.call('growthChart', 'History');
    const t = (what: string) => r.call('tryChart', 'History', what);
    // typed methods (setTitle, ...) exist only on the builder as...Chart() returns, as in the Apps Script reference
    expect(t('titleOnGeneric')).toMatch(/^TypeError: .*setTitle is not a function$/);
    expect(t('titleAfterModify')).toMatch(/^TypeError: .*setTitle is not a function$/);
    expect(t('noType')).toMatch(/^Exception: The chart has no type/);
    expect(t('notInserted')).toBe(
      'Exception: removeChart: this chart is not on sheet "History" (insert it with insertChart first; a chart from another sheet stays there).',
    );
    expect(t('twice')).toBe(
      'Exception: insertChart: this chart is already in the spreadsheet; change it with modify() and updateChart.',
    );
    expect(t('badRange')).toBe('Exception: Invalid argument: range');
    expect(t('badPosition')).toBe('Exception: Invalid argument: anchorRowPos');
    expect(t('blob')).toMatch(/^Exception: EmbeddedChart.getBlob is not modelled/);
    expect(r.spreadsheet.sheet('History').charts).toHaveLength(1);
  });
});
