// Evaluates the one formula shape the tracker view writes (sheets-addon/src/tracker/view.ts):
//   =IFERROR(SPARKLINE(FILTER('<sheet>'!C2:C,ISNUMBER('<sheet>'!C2:C),('<sheet>'!B2:B="a")+(...))),"")
// to the numbers Sheets would draw, in order. Not a Sheets formula engine: any other formula gives
// null. One evaluator for the preview page's grid (server.mjs sends the points) and for the tests
// that check a tracker's trends (test/sheets/tracker.test.ts, sheets-addon/test/tracker.test.ts).
(function (root) {
  'use strict';
  var SHEET = "'((?:[^']|'')+)'";
  var SHAPE = new RegExp(
    '^=IFERROR\\(SPARKLINE\\(FILTER\\(' +
      SHEET +
      '!([A-Z]+)2:\\2,ISNUMBER\\(' +
      SHEET +
      '!\\2\\d*:?\\2?\\),(.+)\\)\\),""\\)$',
  );
  function colIndex(letters) {
    var n = 0;
    for (var i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
    return n - 1;
  }
  /** `rowsOf(sheetName)`: the sheet's values, row 1 first. Returns the trend's numbers, or null for another formula. */
  function sparklinePoints(formula, rowsOf) {
    var m = SHAPE.exec(formula);
    if (!m) return null;
    var sheet = m[1].replace(/''/g, "'");
    var col = colIndex(m[2]);
    var names = [];
    var re = /\('(?:[^']|'')+'!B2:B="((?:[^"]|"")*)"\)/g,
      t;
    while ((t = re.exec(m[4]))) names.push(t[1].replace(/""/g, '"'));
    var rows = (rowsOf(sheet) || []).slice(1);
    var out = [];
    for (var i = 0; i < rows.length; i++) {
      var v = rows[i][col];
      if (typeof v === 'number' && names.indexOf(String(rows[i][1])) >= 0) out.push(v);
    }
    return out;
  }
  if (typeof module === 'object' && module.exports) module.exports = { sparklinePoints: sparklinePoints };
  else root.sparklinePoints = sparklinePoints;
})(this);
