// Draws an embedded line chart of the Sheets preview as an inline SVG string, from the stand-in's
// chart view ({ type, numHeaders, transpose, options: { title, hAxis, vAxis }, values: [grid per range] }):
// the first column is the x axis (dates or labels), every other column a series with a legend entry;
// transposed (setTransposeRowsAndColumns), each row is a series and the first row the x axis.
// A blank cell is a gap in its line, as in Sheets. Not Google Charts: a sketch of what Sheets
// draws, so the growth view can be seen without Google. Served as /chart.js; `lineChartSvg` is
// also required by Node (module.exports) for tests.
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
  var ISO = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

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
  /** The ranges side by side (Sheets' MERGE_COLUMNS), row by row. */
  function table(view) {
    var grids = view.values || [];
    var rows = Math.max.apply(
      null,
      [0].concat(
        grids.map(function (g) {
          return g.length;
        }),
      ),
    );
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
    var width = Math.max.apply(
      null,
      [0].concat(
        rows.map(function (r) {
          return r.length;
        }),
      ),
    );
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
  /** "7 Dec", or "7 Dec 2026" (en-US month names: "Sep", where en-GB says "Sept"). */
  function dateLabel(ms, timeZone, withYear) {
    var p = {};
    try {
      new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: timeZone || 'UTC' })
        .formatToParts(new Date(ms))
        .forEach(function (x) {
          p[x.type] = x.value;
        });
    } catch {
      return new Date(ms).toISOString().slice(0, 10);
    }
    return p.day + ' ' + p.month + (withYear ? ' ' + p.year : '');
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
    var width = Math.max.apply(
      null,
      [0].concat(
        rows.map(function (r) {
          return r.length;
        }),
      ),
    );
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

  /**
   * The chart as an SVG string of `width` x `height` (Sheets' default 600 x 371). Paths carry
   * class "series" and data-series (the column's header), one per series, gaps included.
   */
  function lineChartSvg(view, opts) {
    opts = opts || {};
    var W = opts.width || 600,
      H = opts.height || 371,
      tz = opts.timeZone;
    var o = view.options || {};
    var series = seriesOf(view),
      data = series.data,
      names = series.names,
      ys = series.ys;
    // x: dates on a time scale when every label is one, else evenly spaced labels
    var isTime =
      data.length > 0 &&
      data.every(function (r) {
        return ISO.test(String(r[0]));
      });
    var xs = data.map(function (r, i) {
      return isTime ? Date.parse(r[0]) : i;
    });

    var title = o.title ? String(o.title) : '';
    var hTitle = o.hAxis && o.hAxis.title ? String(o.hAxis.title) : '';
    var vTitle = o.vAxis && o.vAxis.title ? String(o.vAxis.title) : '';
    var legendW = names.length ? legendWidth(names) : 0;
    var L = 64 + (vTitle ? 18 : 0),
      R = legendW + 16,
      T = title ? 40 : 16,
      B = 40 + (hTitle ? 18 : 0);
    var pw = W - L - R,
      ph = H - T - B;
    var svg = frame(W, H, 'chart', title, L, 'Line chart');
    if (!ys.length) return noNumbers(svg, W, H);
    var yt = niceTicks(Math.min.apply(null, ys), Math.max.apply(null, ys), 5);
    var y0 = yt[0],
      y1 = yt[yt.length - 1];
    var x0 = Math.min.apply(null, xs),
      x1 = Math.max.apply(null, xs);
    var pad = x1 === x0 ? 1 : 0; // one snapshot: a dot in the middle
    var X = function (x) {
      return L + (pad ? pw / 2 : ((x - x0) / (x1 - x0)) * pw);
    };
    var Y = function (y) {
      return T + ph - ((y - y0) / (y1 - y0)) * ph;
    };
    yAxis(svg, yt, Y, L, pw, y0);
    // x labels: at most 6, spread over the points; a year only when the dates span more than one
    var step = Math.max(1, Math.ceil(data.length / 6));
    var years = isTime && new Date(x0).getUTCFullYear() !== new Date(x1).getUTCFullYear();
    for (var i = 0; i < data.length; i += step) {
      var label = isTime ? dateLabel(xs[i], tz, years) : String(data[i][0]);
      svg.push(
        '<line x1="' +
          X(xs[i]).toFixed(1) +
          '" x2="' +
          X(xs[i]).toFixed(1) +
          '" y1="' +
          (T + ph) +
          '" y2="' +
          (T + ph + 4) +
          '" stroke="#5f6368"/>',
      );
      svg.push(
        '<text class="xtick" x="' +
          X(xs[i]).toFixed(1) +
          '" y="' +
          (T + ph + 17) +
          '" text-anchor="middle" fill="#5f6368">' +
          esc(label.length > 14 ? label.slice(0, 13) + '…' : label) +
          '</text>',
      );
    }
    if (hTitle)
      svg.push(
        '<text x="' +
          (L + pw / 2) +
          '" y="' +
          (H - 10) +
          '" text-anchor="middle" font-style="italic" fill="#3c4043">' +
          esc(hTitle) +
          '</text>',
      );
    if (vTitle)
      svg.push(
        '<text x="16" y="' +
          (T + ph / 2) +
          '" text-anchor="middle" font-style="italic" fill="#3c4043" transform="rotate(-90 16 ' +
          (T + ph / 2) +
          ')">' +
          esc(vTitle) +
          '</text>',
      );
    // one path per series; a blank cell starts a new segment (M) instead of a line through it
    names.forEach(function (name, s) {
      var color = PALETTE[s % PALETTE.length],
        d = '',
        pen = false,
        dots = '';
      data.forEach(function (r, i) {
        var v = num(r[s + 1]);
        if (v === null) {
          pen = false;
          return;
        }
        d += (pen ? 'L' : 'M') + X(xs[i]).toFixed(1) + ' ' + Y(v).toFixed(1);
        pen = true;
        dots +=
          '<circle cx="' +
          X(xs[i]).toFixed(1) +
          '" cy="' +
          Y(v).toFixed(1) +
          '" r="2.5" fill="' +
          color +
          '"><title>' +
          esc(name + ': ' + v) +
          '</title></circle>';
      });
      svg.push(
        '<path class="series" data-series="' +
          esc(name) +
          '" d="' +
          d +
          '" fill="none" stroke="' +
          color +
          '" stroke-width="2" stroke-linejoin="round"/>' +
          dots,
      );
    });
    // legend on the right, as Sheets puts it; what does not fit is counted
    var fit = Math.max(1, Math.floor(ph / 18));
    names.slice(0, names.length > fit ? fit - 1 : fit).forEach(function (name, s) {
      var ly = T + 8 + s * 18,
        lx = W - legendW - 4;
      svg.push(
        '<g class="legend"><rect x="' +
          lx +
          '" y="' +
          (ly - 5) +
          '" width="12" height="3" fill="' +
          PALETTE[s % PALETTE.length] +
          '"/>' +
          '<text x="' +
          (lx + 18) +
          '" y="' +
          ly +
          '" fill="#3c4043">' +
          esc(name.length > 16 ? name.slice(0, 15) + '…' : name) +
          '</text></g>',
      );
    });
    if (names.length > fit)
      svg.push(
        '<text x="' +
          (W - legendW - 4) +
          '" y="' +
          (T + 8 + (fit - 1) * 18) +
          '" fill="#5f6368">+' +
          (names.length - fit + 1) +
          ' more</text>',
      );
    svg.push('</svg>');
    return svg.join('');
  }

  // What the column chart (column-chart.js) draws with too.
  var parts = {
    PALETTE: PALETTE,
    esc: esc,
    num: num,
    niceTicks: niceTicks,
    seriesOf: seriesOf,
    legendWidth: legendWidth,
    frame: frame,
    noNumbers: noNumbers,
    yAxis: yAxis,
  };
  if (typeof module === 'object' && module.exports) module.exports = { lineChartSvg: lineChartSvg, chartParts: parts };
  else {
    root.lineChartSvg = lineChartSvg;
    root.chartParts = parts;
  }
})(this);
