/**
 * The Sheets preview's column chart (scripts/sheets-preview/column-chart.js) and the transposed chart view both
 * charts read (chart-parts.js `oriented`), from views such as the stand-in's ChartModel.view() gives for a benchmark's
 * charts: the header row and a measure's row, transposed (each row a series, its first cell the name; the header's
 * cells the categories). One bar per account, in the header's order, heights ordered as the values.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the page's scripts, plain CommonJS-compatible files with no types
const { columnChartSvg } = require('../../scripts/sheets-preview/column-chart.js') as {
  columnChartSvg: (view: unknown, opts?: { width?: number; height?: number }) => string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lineChartSvg } = require('../../scripts/sheets-preview/chart.js') as {
  lineChartSvg: (view: unknown, opts?: { timeZone?: string }) => string;
};

/**
 * A benchmark's chart: the header row and one measure's row, one under the other (MERGE_ROWS), transposed, no legend
 * (as book.ts builds it).
 */
const benchmarkView = (header: unknown[], row: unknown[], more: Record<string, unknown> = {}) => ({
  type: 'column',
  numHeaders: 1,
  mergeStrategy: 'MERGE_ROWS',
  transpose: true,
  options: { title: row[0], legend: { position: 'none' } },
  values: [[header], [row]],
  ...more,
});
const all = (svg: string, re: RegExp) => [...svg.matchAll(re)].map((m) => m[1]);
/** The bars as drawn: category, series, value and height in px. */
const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar" ([^>]*)>/g)].map((m) => {
    const attr = (name: string) => (new RegExp(`(?:^| )${name}="([^"]*)"`).exec(m[1]) ?? [])[1];
    return {
      category: attr('data-category'),
      series: attr('data-series'),
      value: Number(attr('data-value')),
      height: Number(attr('height')),
      x: Number(attr('x')),
      y: Number(attr('y')),
    };
  });

test("a benchmark's chart: one bar per account in the header's order, heights ordered as the values, the title, no legend", () => {
  const svg = columnChartSvg(
    benchmarkView(['measure', 'nasa (ours)', 'natgeo', 'nike', 'starbucks'], ['Engagement rate %', 2.5, 4.25, 0.8, 3]),
  );
  const drawn = bars(svg);
  expect(drawn.map((b) => [b.category, b.series, b.value])).toEqual([
    ['nasa (ours)', 'Engagement rate %', 2.5],
    ['natgeo', 'Engagement rate %', 4.25],
    ['nike', 'Engagement rate %', 0.8],
    ['starbucks', 'Engagement rate %', 3],
  ]);
  // Taller for a larger value, in proportion, standing on the same baseline, left to right.
  const byValue = [...drawn].sort((a, b) => a.value - b.value);
  expect(byValue.map((b) => b.height)).toEqual([...byValue.map((b) => b.height)].sort((a, b) => a - b));
  expect(new Set(byValue.map((b) => b.height)).size).toBe(4);
  expect(drawn[1].height / drawn[0].height).toBeCloseTo(4.25 / 2.5, 1);
  expect(new Set(drawn.map((b) => (b.y + b.height).toFixed(0))).size).toBe(1);
  expect(drawn.map((b) => b.x)).toEqual([...drawn.map((b) => b.x)].sort((a, b) => a - b));
  expect(all(svg, /class="xtick"[^>]*><title>([^<]*)</g)).toEqual(['nasa (ours)', 'natgeo', 'nike', 'starbucks']);
  expect(all(svg, /class="title"[^>]*>([^<]*)</g)).toEqual(['Engagement rate %']);
  expect(svg).not.toContain('class="legend"');
  expect(all(svg, /class="ytick"[^>]*>([^<]*)</g)[0]).toBe('0');
  // A narrow chart: a name too long for its band goes on two lines at a space, as Sheets wraps it.
  const narrow = columnChartSvg(benchmarkView(['measure', 'nasa (ours)', 'natgeo'], ['E', 1, 2]), { width: 200 });
  expect(all(narrow, /<tspan[^>]*>([^<]*)</g)).toEqual(['nasa', '(ours)', 'natgeo']);
});

test('growth: a negative value hangs below zero, a blank draws no bar; before any number, says so', () => {
  const svg = columnChartSvg(benchmarkView(['measure', 'a (ours)', 'b', 'c'], ['Growth', 0.02, '', -0.01]));
  const drawn = bars(svg);
  // Fractions keep the decimals their ticks need.
  expect(all(svg, /class="ytick"[^>]*>([^<]*)</g)).toEqual(['-0.01', '0.00', '0.01', '0.02']);
  expect(drawn.map((b) => [b.category, b.value])).toEqual([
    ['a (ours)', 0.02],
    ['c', -0.01],
  ]);
  const [up, down] = drawn;
  expect(down.y).toBeCloseTo(up.y + up.height, 0); // c starts at the zero line where a ends
  expect(down.height).toBeCloseTo(up.height / 2, 0);
  expect(columnChartSvg(benchmarkView(['measure', 'a', 'b'], ['Growth', '', '']))).toContain('No numbers to chart yet');
});

test('not transposed: the first column is the categories, each other column a series (grouped bars, a legend); text is escaped', () => {
  const svg = columnChartSvg({
    type: 'column',
    numHeaders: 1,
    options: { title: 'x' },
    values: [
      [
        ['account', 'likes', '<b>'],
        ['a', 10, 1],
        ['b', 20, 2],
      ],
    ],
  });
  expect(bars(svg).map((b) => [b.category, b.series, b.value])).toEqual([
    ['a', 'likes', 10],
    ['a', '&lt;b&gt;', 1],
    ['b', 'likes', 20],
    ['b', '&lt;b&gt;', 2],
  ]);
  expect(svg).not.toContain('<b>');
  expect(svg.match(/class="legend"/g)).toHaveLength(2);
});

test('the line chart honours transpose too: rows as series draw what the same table in columns draws', () => {
  const dates = ['2026-11-30T07:00:00.000Z', '2026-12-07T07:00:00.000Z'];
  const columns = lineChartSvg(
    {
      type: 'line',
      numHeaders: 1,
      options: {},
      values: [
        [
          ['date', 'nasa', 'natgeo'],
          [dates[0], 1, 3],
          [dates[1], 2, 4],
        ],
      ],
    },
    { timeZone: 'Etc/UTC' },
  );
  const rows = lineChartSvg(
    {
      type: 'line',
      numHeaders: 1,
      mergeStrategy: 'MERGE_ROWS',
      transpose: true,
      options: {},
      values: [[['date', ...dates]], [['nasa', 1, 2]], [['natgeo', 3, 4]]],
    },
    { timeZone: 'Etc/UTC' },
  );
  expect(rows).toBe(columns);
  expect(all(rows, /data-series="([^"]*)"/g)).toEqual(['nasa', 'natgeo']);
});

export {}; // a module: its names are its own (preview-chart.test.ts requires the same script)
