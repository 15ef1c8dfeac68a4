// Draws an embedded column chart of the Sheets preview as an inline SVG string, from the stand-in's
// chart view as chart-parts.js reads it (transpose and merge honoured there: seriesOf): the first column
// is the categories (a group of bars each), every other column a series, a bar of its colour in
// every group. Bars stand on zero (a negative one hangs below it); a blank cell draws no bar. The
// legend sits on the right unless the chart says `legend.position: none`. Not Google Charts: a sketch
// of what Sheets draws, so a benchmark's charts can be seen without Google. Served as
// /column-chart.js after /chart-parts.js; `columnChartSvg` is also required by Node for tests.
(function (root) {
  'use strict';
  var P = typeof module === 'object' && module.exports ? require('./chart-parts.js') : root.chartParts;
  var esc = P.esc,
    num = P.num;

  /** A category's label in a band `fits` characters wide: whole, or on two lines at a space (as Sheets wraps), cut with "…". */
  function labelLines(text, fits) {
    var cut = function (s) {
      return s.length > fits ? s.slice(0, fits - 1) + '…' : s;
    };
    if (text.length <= fits) return [text];
    var at = text.lastIndexOf(' ', fits);
    return at > 0 ? [text.slice(0, at), cut(text.slice(at + 1))] : [cut(text)];
  }

  /**
   * The chart as an SVG string of `width` x `height` (Sheets' default 600 x 371). Each bar is a rect
   * of class "bar" with data-series, data-category and data-value.
   */
  function columnChartSvg(view, opts) {
    opts = opts || {};
    var W = opts.width || 600,
      H = opts.height || 371;
    var o = view.options || {};
    var series = P.seriesOf(view),
      data = series.data,
      names = series.names,
      ys = series.ys;
    var title = o.title ? String(o.title) : '';
    var legend = !(o.legend && o.legend.position === 'none') && names.length > 0;
    var legendW = legend ? P.legendWidth(names) : 0;
    var L = 64,
      R = legendW + 16,
      T = title ? 40 : 16,
      B = 40;
    var pw = W - L - R,
      ph = H - T - B;
    var svg = P.frame(W, H, 'chart column', title, L, 'Column chart');
    if (!ys.length) return P.noNumbers(svg, W, H);
    // the y axis covers the values and zero, where the bars stand
    var yt = P.niceTicks(Math.min.apply(null, ys.concat(0)), Math.max.apply(null, ys.concat(0)), 5);
    var y0 = yt[0],
      y1 = yt[yt.length - 1];
    var Y = function (y) {
      return T + ph - ((y - y0) / (y1 - y0)) * ph;
    };
    P.yAxis(svg, yt, Y, L, pw, 0);
    // a band per category; its bars side by side in the middle 70%
    var band = pw / data.length,
      group = band * 0.7,
      bar = group / Math.max(1, names.length),
      fits = Math.max(3, Math.floor(band / 6));
    data.forEach(function (r, i) {
      var category = String(r[0]),
        left = L + i * band + (band - group) / 2;
      names.forEach(function (name, s) {
        var v = num(r[s + 1]);
        if (v === null) return;
        var top = Y(Math.max(v, 0)),
          h = Math.abs(Y(v) - Y(0));
        svg.push(
          '<rect class="bar" data-series="' +
            esc(name) +
            '" data-category="' +
            esc(category) +
            '" data-value="' +
            v +
            '" x="' +
            (left + s * bar).toFixed(1) +
            '" y="' +
            top.toFixed(1) +
            '" width="' +
            Math.max(1, bar - 1).toFixed(1) +
            '" height="' +
            h.toFixed(1) +
            '" fill="' +
            P.PALETTE[s % P.PALETTE.length] +
            '"><title>' +
            esc(category + ' · ' + name + ': ' + v) +
            '</title></rect>',
        );
      });
      var x = (L + (i + 0.5) * band).toFixed(1);
      svg.push(
        '<text class="xtick" x="' +
          x +
          '" y="' +
          (T + ph + 17) +
          '" text-anchor="middle" fill="#5f6368"><title>' +
          esc(category) +
          '</title>' +
          labelLines(category, fits)
            .map(function (line, k) {
              return '<tspan x="' + x + '" dy="' + (k ? 13 : 0) + '">' + esc(line) + '</tspan>';
            })
            .join('') +
          '</text>',
      );
    });
    if (legend) {
      var fit = Math.max(1, Math.floor(ph / 18));
      names.slice(0, fit).forEach(function (name, s) {
        var ly = T + 8 + s * 18,
          lx = W - legendW - 4;
        svg.push(
          '<g class="legend"><rect x="' +
            lx +
            '" y="' +
            (ly - 8) +
            '" width="10" height="10" fill="' +
            P.PALETTE[s % P.PALETTE.length] +
            '"/><text x="' +
            (lx + 16) +
            '" y="' +
            ly +
            '" fill="#3c4043">' +
            esc(name.length > 16 ? name.slice(0, 15) + '…' : name) +
            '</text></g>',
        );
      });
    }
    svg.push('</svg>');
    return svg.join('');
  }

  if (typeof module === 'object' && module.exports) module.exports = { columnChartSvg: columnChartSvg };
  else root.columnChartSvg = columnChartSvg;
})(this);
