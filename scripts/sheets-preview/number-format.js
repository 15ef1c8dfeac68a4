// A number as Sheets draws it under the number formats the add-on sets (setNumberFormat): "0.0%"
// (a tracker's change %, the growth view), "#,##0" (followers in a scorecard, a tracker's counts),
// and the same family: digits after the point from the zeros, "#,##0" for thousands separators, "%"
// to show a fraction as a percentage. Sheets rounds half away from zero, as toFixed does for these.
// Any other format (General, dates, text) gives null: the cell shows the value as it is. Used by
// cells.mjs for the page's grid, and by the tests that check what a cell shows.
(function (root) {
  'use strict';
  var SHAPE = /^(#,##)?0(?:\.(0+))?(%)?$/;
  function numberText(value, format) {
    if (typeof value !== 'number' || !isFinite(value) || typeof format !== 'string') return null;
    var m = SHAPE.exec(format);
    if (!m) return null;
    var n = m[3] ? value * 100 : value;
    var digits = m[2] ? m[2].length : 0;
    var text = Math.abs(n).toFixed(digits);
    if (m[1]) {
      var parts = text.split('.');
      parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      text = parts.join('.');
    }
    // "-0.0%" is drawn "0.0%" by Sheets when the rounded value is zero
    var negative = n < 0 && Number(Math.abs(n).toFixed(digits)) !== 0;
    return (negative ? '-' : '') + text + (m[3] ? '%' : '');
  }
  var api = { numberText: numberText };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.numberText = numberText;
})(this);
