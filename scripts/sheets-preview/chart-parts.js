// What the Sheets preview's charts share (chart.js draws a line chart, column-chart.js a column chart): the
// palette, reading the stand-in's chart view into series (the ranges joined as the chart says, turned when it is
// transposed), nice ticks and their labels, the svg frame, the empty chart and the y axis. Not Google Charts: a
// sketch of what Sheets draws. Served as /chart-parts.js before the two; required by Node for tests.
(function (root) {
  'use strict';
  var PALETTE = [
    '#3366cc',
    '#dc3912',
    '#ff9900',
    '#109618',
    '#990099',
    '#0099c6',
    '#dd4477',
    '#66aa00',
    '#b82e2e',
    '#316395',
  ];

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
    });
  }
  function num(v) {
    return typeof v === 'number' && isFinite(v)
      ? v
      : typeof v === 'string' && v.trim() !== '' && isFinite(Number(v))
        ? Number(v)
        : null;
  }
  /** The length of the longest of `lists` (0 for none). */
  function longest(lists) {
    return lists.reduce(function (n, l) {
      return Math.max(n, l.length);
    }, 0);
  }
  /** The ranges side by side (Sheets' MERGE_COLUMNS), row by row. */
  function table(view) {
    var grids = view.values || [];
    var rows = longest(grids);
    var out = [];
    for (var r = 0; r < rows; r++)
      out.push(
        [].concat.apply(
          [],
          grids.map(function (g, i) {
            return (
              g[r] ||
              (grids[i][0] || []).map(function () {
                return '';
              })
            );
          }),
        ),
      );
    return out;
  }
  /**
   * The chart's table with its series in columns: the ranges joined as the chart says (side by side,
   * MERGE_COLUMNS, the default; one under the other, MERGE_ROWS); transposed, that table's rows are
   * the series (each row's first cell the name), turned into columns.
   */
  function oriented(view) {
    var rows = view.mergeStrategy === 'MERGE_ROWS' ? [].concat.apply([], view.values || []) : table(view);
    if (!view.transpose) return rows;
    var width = longest(rows);
    var out = [];
    for (var c = 0; c < width; c++)
      out.push(
        rows.map(function (r) {
          return r[c] === undefined ? '' : r[c];
        }),
      );
    return out;
  }
  /** Ticks at 1, 2 or 5 times a power of ten covering [lo, hi]. */
  function niceTicks(lo, hi, count) {
    if (lo === hi) {
      lo -= Math.abs(lo) / 10 || 1;
      hi += Math.abs(hi) / 10 || 1;
    }
    var raw = (hi - lo) / count,
      p = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10]
      .map(function (m) {
        return m * p;
      })
      .filter(function (s) {
        return s >= raw;
      })[0];
    var ticks = [];
    for (var t = Math.floor(lo / step) * step; t <= hi + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
    if (ticks[ticks.length - 1] < hi) ticks.push(ticks[ticks.length - 1] + step);
    return ticks;
  }
  function compact(n) {
    try {
      return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
    } catch {
      return String(n);
    }
  }
  /** A tick's label: compact ("1.5K"), with the decimals a step under 1 needs ("0.02", not "0"). */
  function tickLabel(t, ticks) {
    var step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
    return step >= 1 ? compact(t) : t.toFixed(Math.min(10, Math.ceil(-Math.log10(step) - 1e-9)));
  }
  /**
   * The chart's series: the table oriented, its header row (numHeaders, or guessed when -1: a first row
   * of no numbers), the data rows with a category (a blank first cell is no row), one name per
   * series ("Series 2" where the header is blank), and every number charted (for the y axis).
   */
  function seriesOf(view) {
    var rows = oriented(view);
    var headers =
      view.numHeaders > 0 ||
      (view.numHeaders < 0 &&
        rows[0] &&
        rows[0].slice(1).every(function (v) {
          return num(v) === null;
        }));
    var head = headers && rows.length ? rows[0] : [];
    var data = (headers ? rows.slice(1) : rows).filter(function (r) {
      return r[0] !== '' && r[0] !== null && r[0] !== undefined;
    });
    var width = longest(rows);
    var names = [];
    for (var c = 1; c < width; c++)
      names.push(head[c] !== undefined && head[c] !== '' ? String(head[c]) : 'Series ' + c);
    var ys = [];
    data.forEach(function (r) {
      for (var k = 1; k < width; k++) if (num(r[k]) !== null) ys.push(num(r[k]));
    });
    return { data: data, names: names, ys: ys };
  }
  /** The legend's width on the right: its longest name (16 characters at most), 150 px at most. */
  function legendWidth(names) {
    return Math.min(
      150,
      28 +
        7 *
          Math.max.apply(
            null,
            names.map(function (n) {
              return Math.min(n.length, 16);
            }),
          ),
    );
  }
  /**
   * The svg's opening (named `unnamed` for a screen reader when it has no title), its white card and its title at
   * `left`: the list the chart's elements are pushed to.
   */
  function frame(W, H, className, title, left, unnamed) {
    var parts = [
      '<svg xmlns="http://www.w3.org/2000/svg" class="' +
        className +
        '" width="' +
        W +
        '" height="' +
        H +
        '" viewBox="0 0 ' +
        W +
        ' ' +
        H +
        '" font-family="Arial, sans-serif" font-size="11" role="img" aria-label="' +
        esc(title || unnamed) +
        '">',
      '<rect width="' + W + '" height="' + H + '" fill="#fff" stroke="#dadce0"/>',
    ];
    if (title)
      parts.push('<text class="title" x="' + left + '" y="24" font-size="15" fill="#202124">' + esc(title) + '</text>');
    return parts;
  }
  /** The chart closed with "No numbers to chart yet" in its middle. */
  function noNumbers(parts, W, H) {
    parts.push(
      '<text x="' +
        W / 2 +
        '" y="' +
        H / 2 +
        '" text-anchor="middle" fill="#5f6368">No numbers to chart yet</text></svg>',
    );
    return parts.join('');
  }
  /** The y grid from `L` across `pw`, a label per tick; the line at `base` darker (the axis). */
  function yAxis(parts, yt, Y, L, pw, base) {
    yt.forEach(function (t) {
      var y = Y(t).toFixed(1);
      parts.push(
        '<line x1="' +
          L +
          '" x2="' +
          (L + pw) +
          '" y1="' +
          y +
          '" y2="' +
          y +
          '" stroke="' +
          (t === base ? '#5f6368' : '#e8eaed') +
          '"/>',
      );
      parts.push(
        '<text class="ytick" x="' +
          (L - 6) +
          '" y="' +
          (Y(t) + 4).toFixed(1) +
          '" text-anchor="end" fill="#5f6368">' +
          esc(tickLabel(t, yt)) +
          '</text>',
      );
    });
  }

  var parts = {
    PALETTE: PALETTE,
    esc: esc,
    num: num,
    oriented: oriented,
    niceTicks: niceTicks,
    tickLabel: tickLabel,
    seriesOf: seriesOf,
    legendWidth: legendWidth,
    frame: frame,
    noNumbers: noNumbers,
    yAxis: yAxis,
  };
  if (typeof module === 'object' && module.exports) module.exports = parts;
  else root.chartParts = parts;
})(this);
