// Draws an embedded line chart of the Sheets preview as an inline SVG string, from the stand-in's
// chart view ({ type, numHeaders, transpose, options: { title, hAxis, vAxis }, values: [grid per range] }):
// the first column is the x axis (dates or labels), every other column a series with a legend entry;
// transposed (setTransposeRowsAndColumns), each row is a series and the first row the x axis.
// A blank cell is a gap in its line, as in Sheets. Not Google Charts: a sketch of what Sheets
// draws, so the growth view can be seen without Google. Served as /chart.js; `lineChartSvg` is
// also required by Node (module.exports) for tests.
(function (root) {
  'use strict';
  var P = typeof module === 'object' && module.exports ? require('./chart-parts.js') : root.chartParts;
  var PALETTE = P.PALETTE,
    esc = P.esc,
    num = P.num,
    niceTicks = P.niceTicks,
    seriesOf = P.seriesOf,
    legendWidth = P.legendWidth,
    frame = P.frame,
    noNumbers = P.noNumbers,
    yAxis = P.yAxis;
  var ISO = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/;

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

  if (typeof module === 'object' && module.exports) module.exports = { lineChartSvg: lineChartSvg };
  else root.lineChartSvg = lineChartSvg;
})(this);
