/**
 * The Sheets preview's line chart (scripts/sheets-preview/chart.js), from chart views such as the
 * stand-in's ChartModel.view() gives: one path per series, a blank cell is a gap (a new segment,
 * never a zero), dates on the x axis as day and month, the title and axis titles from the options.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the page's script, a plain CommonJS-compatible file with no types
const { lineChartSvg } = require('../../scripts/sheets-preview/chart.js') as {
  lineChartSvg: (view: unknown, opts?: { width?: number; height?: number; timeZone?: string }) => string;
};

const view = (values: unknown[][], more: Record<string, unknown> = {}) => ({
  type: 'line',
  numHeaders: 1,
  options: { title: 'followers over time', hAxis: { title: 'date' }, vAxis: { title: 'followers' } },
  values: [values],
  ...more,
});
const all = (svg: string, re: RegExp) => [...svg.matchAll(re)].map((m) => m[1]);

test('one path per series, named by its header; a blank is a gap that starts a new segment', () => {
  const svg = lineChartSvg(
    view([
      ['date', 'nasa', 'natgeo'],
      ['2026-11-30T07:00:00.000Z', 100, 10],
      ['2026-12-07T07:00:00.000Z', '', 20],
      ['2026-12-14T07:00:00.000Z', 300, 30],
    ]),
    { timeZone: 'Etc/UTC' },
  );
  expect(all(svg, /data-series="([^"]*)"/g)).toEqual(['nasa', 'natgeo']);
  const [nasa, natgeo] = all(svg, /class="series" data-series="[^"]*" d="([^"]*)"/g);
  expect(nasa.match(/[ML]/g)).toEqual(['M', 'M']); // two points, apart: no line through the gap
  expect(natgeo.match(/[ML]/g)).toEqual(['M', 'L', 'L']);
  expect(all(svg, /class="xtick"[^>]*>([^<]*)</g)).toEqual(['30 Nov', '7 Dec', '14 Dec']);
  expect(all(svg, /class="title"[^>]*>([^<]*)</g)).toEqual(['followers over time']);
  expect(svg).toContain('>followers</text>');
  expect(svg).toContain('>date</text>');
  // the y axis covers the values with round ticks, compactly written
  expect(all(svg, /class="ytick"[^>]*>([^<]*)</g)).toEqual(['0', '100', '200', '300']);
});

test('dates spanning two years carry the year; labels that are not dates are shown as they are', () => {
  const years = lineChartSvg(
    view([
      ['date', 'a'],
      ['2026-12-28T00:00:00.000Z', 1],
      ['2027-01-04T00:00:00.000Z', 2],
    ]),
    { timeZone: 'Etc/UTC' },
  );
  expect(all(years, /class="xtick"[^>]*>([^<]*)</g)).toEqual(['28 Dec 2026', '4 Jan 2027']);
  // three-letter months, September included (en-GB would say "Sept")
  const sep = lineChartSvg(
    view([
      ['date', 'a'],
      ['2026-09-07T00:00:00.000Z', 1],
      ['2026-09-14T00:00:00.000Z', 2],
    ]),
    { timeZone: 'Etc/UTC' },
  );
  expect(all(sep, /class="xtick"[^>]*>([^<]*)</g)).toEqual(['7 Sep', '14 Sep']);
  const labels = lineChartSvg(
    view([
      ['week', 'a'],
      ['w1', 1],
      ['w2', 2],
    ]),
  );
  expect(all(labels, /class="xtick"[^>]*>([^<]*)</g)).toEqual(['w1', 'w2']);
});

test('numHeaders -1 (not set): a first row of text is taken for headers; text is escaped; no numbers says so', () => {
  const svg = lineChartSvg(
    view(
      [
        ['date', '<b>&'],
        ['2026-11-30T00:00:00.000Z', 5],
      ],
      { numHeaders: -1 },
    ),
  );
  expect(all(svg, /data-series="([^"]*)"/g)).toEqual(['&lt;b&gt;&amp;']);
  expect(svg).not.toContain('<b>');
  expect(
    lineChartSvg(
      view([
        ['date', 'a'],
        ['2026-11-30T00:00:00.000Z', ''],
      ]),
    ),
  ).toContain('No numbers to chart yet');
});
