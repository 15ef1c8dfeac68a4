/**
 * Embedded charts: Sheet.newChart/insertChart/getCharts/removeChart/updateChart, the chart
 * builders, EmbeddedChart, and the `Charts` enums. The charts live in the model (chartModel.ts);
 * nothing is drawn. Enum values are their names as strings, as elsewhere in the stand-in.
 */
import type { Realm } from '../internal/realm';
import { fromRealm } from '../internal/realm';
import { ChartModel, ChartPosition } from './chartModel';
import type { GridRange, SheetModel, SpreadsheetModel } from './spreadsheetModel';

/** A chart of the model: its ranges are the sheet model's. */
type Chart = ChartModel<GridRange>;

const enumOf = (...names: string[]) => Object.freeze(Object.fromEntries(names.map((n) => [n, n])));

const ChartType = enumOf(
  'TIMELINE',
  'AREA',
  'BAR',
  'BUBBLE',
  'CANDLESTICK',
  'COLUMN',
  'COMBO',
  'GAUGE',
  'GEO',
  'HISTOGRAM',
  'RADAR',
  'LINE',
  'ORG',
  'PIE',
  'SCATTER',
  'SPARKLINE',
  'STEPPED_AREA',
  'TABLE',
  'TREEMAP',
  'WATERFALL',
);
const Position = enumOf('TOP', 'RIGHT', 'BOTTOM', 'NONE');
const CurveStyle = enumOf('NORMAL', 'SMOOTH');
const ChartMergeStrategy = enumOf('MERGE_COLUMNS', 'MERGE_ROWS');
const ChartHiddenDimensionStrategy = enumOf('IGNORE_BOTH', 'IGNORE_ROWS', 'IGNORE_COLUMNS', 'SHOW_BOTH');

/** The `Charts` global: only its enums (no standalone charts or data tables). */
export function createCharts() {
  return {
    ChartType,
    Position,
    CurveStyle,
    ChartMergeStrategy,
    ChartHiddenDimensionStrategy,
    toString: () => 'Charts',
  };
}

type Setter = (c: Chart, a: unknown, b?: unknown) => void;
/** The type-specific builder methods the stand-in models, as the Google Charts options they set. */
const TYPED: Record<string, Setter> = {
  setTitle: (c, t) => c.setOption('title', String(t)),
  setXAxisTitle: (c, t) => c.setOption('hAxis.title', String(t)),
  setYAxisTitle: (c, t) => c.setOption('vAxis.title', String(t)),
  setLegendPosition: (c, p) => c.setOption('legend.position', String(p).toLowerCase()),
  setColors: (c, a) => c.setOption('colors', (fromRealm(a) as unknown[]).map(String)),
  setBackgroundColor: (c, v) => c.setOption('backgroundColor', String(v)),
  setRange: (c, lo, hi) => c.setOption('vAxis.viewWindow', { min: Number(lo), max: Number(hi) }),
  useLogScale: (c) => c.setOption('vAxis.logScale', true),
  reverseCategories: (c) => c.setOption('reverseCategories', true),
  setStacked: (c) => c.setOption('isStacked', true),
  setCurveStyle: (c, s) => c.setOption('curveType', s === 'SMOOTH' ? 'function' : 'none'),
  set3D: (c) => c.setOption('is3D', true),
};
const XY = [
  'setTitle',
  'setXAxisTitle',
  'setYAxisTitle',
  'setLegendPosition',
  'setColors',
  'setBackgroundColor',
  'setRange',
  'useLogScale',
  'reverseCategories',
];
/** Which of TYPED each as*Chart() builder has (from the Apps Script reference / its .d.ts). */
const TYPED_BY_TYPE: Record<string, string[]> = {
  area: [...XY, 'setStacked'],
  bar: [...XY, 'setStacked'],
  column: [...XY, 'setStacked'],
  combo: [...XY, 'setStacked'],
  histogram: [...XY, 'setStacked'],
  line: [...XY, 'setCurveStyle'],
  pie: ['setTitle', 'setLegendPosition', 'setColors', 'setBackgroundColor', 'reverseCategories', 'set3D'],
  scatter: ['setTitle', 'setXAxisTitle', 'setYAxisTitle', 'setLegendPosition', 'setColors', 'setBackgroundColor'],
  table: [],
};

export interface ChartDeps {
  realm: Realm;
  model: SpreadsheetModel;
  fail: (m: string) => never;
  read: (what: string) => void;
  write: (what: string) => void;
  rangeFacade: (g: GridRange) => Record<string, unknown>;
  /** The cells behind a Range the script passes in (undefined for anything else). */
  gridOf: (range: unknown) => GridRange | undefined;
}

export function createChartFacades(d: ChartDeps) {
  const { realm, model, fail } = d;
  const charts = new WeakMap<object, Chart>();

  const int = (v: unknown, name: string, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) fail(`Invalid argument: ${name}`);
    return n;
  };
  const containerInfo = (p: ChartPosition) => ({
    getAnchorRow: () => p.row,
    getAnchorColumn: () => p.col,
    getOffsetX: () => p.offsetX,
    getOffsetY: () => p.offsetY,
    toString: () => 'ContainerInfo',
  });
  const sameCells = (a: GridRange, b: GridRange) =>
    a.sheet === b.sheet && a.row === b.row && a.col === b.col && a.numRows === b.numRows && a.numCols === b.numCols;

  /** `typed`: made by as...Chart(), so it has that type's own methods (setTitle, ...). */
  function builder(spec: Chart, typed: boolean): Record<string, unknown> {
    const self: Record<string, unknown> = {};
    const as = (type: string) => () => {
      spec.type = type;
      return builder(spec, true);
    };
    Object.assign(self, {
      asAreaChart: as('area'),
      asBarChart: as('bar'),
      asColumnChart: as('column'),
      asComboChart: as('combo'),
      asHistogramChart: as('histogram'),
      asLineChart: as('line'),
      asPieChart: as('pie'),
      asScatterChart: as('scatter'),
      asTableChart: as('table'),
      addRange(range: unknown) {
        const g = d.gridOf(range) ?? fail('Invalid argument: range');
        if (!spec.ranges.some((x) => sameCells(x, g))) spec.ranges.push({ ...g }); // Apps Script skips a range already added
        return self;
      },
      removeRange(range: unknown) {
        const g = d.gridOf(range) ?? fail('Invalid argument: range');
        spec.ranges = spec.ranges.filter((x) => !sameCells(x, g));
        return self;
      },
      clearRanges: () => ((spec.ranges = []), self),
      getRanges: () => realm.array(spec.ranges.map((g) => d.rangeFacade({ ...g }))),
      getChartType: () => (spec.type === null ? null : spec.type.toUpperCase()),
      getContainer: () => containerInfo({ ...spec.position }),
      setChartType(type: unknown) {
        if (typeof type !== 'string' || !(type in ChartType)) fail('Invalid argument: type');
        spec.type = (type as string).toLowerCase();
        return self;
      },
      setNumHeaders: (n: unknown) => ((spec.numHeaders = int(n, 'headers', 0)), self),
      setOption(option: unknown, value: unknown) {
        if (typeof option !== 'string' || !option) fail('Invalid argument: option');
        spec.setOption(option as string, fromRealm(value));
        return self;
      },
      setPosition(row: unknown, col: unknown, offsetX: unknown, offsetY: unknown) {
        spec.position = {
          row: int(row, 'anchorRowPos', 1),
          col: int(col, 'anchorColPos', 1),
          offsetX: int(offsetX ?? 0, 'offsetX', 0),
          offsetY: int(offsetY ?? 0, 'offsetY', 0),
        };
        return self;
      },
      setTransposeRowsAndColumns: (t: unknown) => ((spec.transpose = Boolean(t)), self),
      setMergeStrategy(s: unknown) {
        if (typeof s !== 'string' || !(s in ChartMergeStrategy)) fail('Invalid argument: mergeStrategy');
        spec.mergeStrategy = s as string;
        return self;
      },
      setHiddenDimensionStrategy(s: unknown) {
        if (typeof s !== 'string' || !(s in ChartHiddenDimensionStrategy)) fail('Invalid argument: strategy');
        spec.hiddenDimensionStrategy = s as string;
        return self;
      },
      build() {
        if (spec.type === null)
          fail(
            'The chart has no type: call asLineChart() (or another as...Chart()) or setChartType(Charts.ChartType...) before build().',
          );
        return chart(spec.clone());
      },
      toString: () => 'EmbeddedChartBuilder',
    });
    // The typed methods are there once a type is chosen with as...Chart(); they stay through the
    // chain (addRange, setPosition, ... return this same builder), as scripts rely on in Apps Script.
    for (const name of typed && spec.type !== null ? (TYPED_BY_TYPE[spec.type] ?? []) : []) {
      self[name] = (a: unknown, b: unknown) => (TYPED[name](spec, a, b), self);
    }
    return self;
  }

  function chart(c: Chart): Record<string, unknown> {
    const self: Record<string, unknown> = {
      getChartId: () => c.id,
      getContainerInfo: () => containerInfo({ ...c.position }),
      getRanges: () => realm.array(c.ranges.map((g) => d.rangeFacade({ ...g }))),
      getNumHeaders: () => c.numHeaders,
      getOptions: () => ({
        get: (key: unknown) => realm.toRealm(c.getOption(String(key))),
        toString: () => 'ChartOptions',
      }),
      getTransposeRowsAndColumns: () => c.transpose,
      getMergeStrategy: () => c.mergeStrategy,
      getHiddenDimensionStrategy: () => c.hiddenDimensionStrategy,
      modify: () => builder(c.clone(), false), // an EmbeddedChartBuilder: as...Chart() for the typed methods
      getBlob: () => fail('EmbeddedChart.getBlob is not modelled: the stand-in draws no charts.'),
      getAs: () => fail('EmbeddedChart.getAs is not modelled: the stand-in draws no charts.'),
      toString: () => 'EmbeddedChart',
    };
    charts.set(self, c);
    return self;
  }

  const chartOf = (x: unknown): Chart =>
    (x !== null && typeof x === 'object' && charts.get(x)) || fail('Invalid argument: chart');
  const indexOn = (sheet: SheetModel, c: Chart, what: string): number => {
    const i = c.id === null ? -1 : sheet.charts.findIndex((x) => x.id === c.id);
    if (i < 0)
      fail(
        `${what}: this chart is not on sheet "${sheet.name}" (insert it with insertChart first; a chart from another sheet stays there).`,
      );
    return i;
  };

  /** The chart methods of one sheet, merged into its Sheet object. */
  return (sheet: SheetModel): Record<string, unknown> => ({
    newChart: () => (d.read('Sheet.newChart'), builder(new ChartModel<GridRange>(), false)),
    getCharts: () => (d.read('Sheet.getCharts'), realm.array(sheet.charts.map(chart))),
    insertChart(x: unknown) {
      d.write('insertChart');
      const c = chartOf(x);
      if (c.id !== null && model.sheets.some((s) => s.charts.includes(c))) {
        fail('insertChart: this chart is already in the spreadsheet; change it with modify() and updateChart.');
      }
      c.id = model.nextChartId++;
      sheet.charts.push(c);
    },
    removeChart(x: unknown) {
      d.write('removeChart');
      sheet.charts.splice(indexOn(sheet, chartOf(x), 'removeChart'), 1);
    },
    updateChart(x: unknown) {
      d.write('updateChart');
      const c = chartOf(x);
      sheet.charts[indexOn(sheet, c, 'updateChart')] = c;
    },
  });
}
