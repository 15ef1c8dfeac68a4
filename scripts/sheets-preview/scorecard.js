// Evaluates the two formula shapes the vet scorecard writes (sheets-addon/src/vet/scorecard.ts) as
// Sheets would, and applies the sheet's conditional colours to what cells show:
//   =IF($A9="","",IF($J9<>"","no data",IF(AND(OR($B$2="",AND(ISNUMBER(C9),C9>=$B$2)),
//      OR($B$5="",AND(F9<>"",ISNUMBER(SEARCH(F9,$B$5))))),"pass","fail")))   (or ,"review")))
//   =HYPERLINK("https://www.instagram.com/"&$A9&"/","profile")
// Not a Sheets formula engine: any other formula gives null. One evaluator for the preview page's
// grid (server.mjs) and for the tests of the scorecard (test/sheets/vet.test.ts).
(function (root) {
  'use strict';
  var VERDICT = /^=IF\(\$A(\d+)="","",IF\(\$([A-Z]+)\1<>"","([^"]*)",(.*)\)\)$/;
  var DECIDED = /^IF\(AND\((.*)\),"([^"]*)","([^"]*)"\)$/;
  var MIN = /^OR\(\$B\$(\d+)="",AND\(ISNUMBER\(([A-Z]+\d+)\),\2>=\$B\$\1\)\)/;
  var GRADE = /^OR\(\$B\$(\d+)="",AND\(([A-Z]+\d+)<>"",ISNUMBER\(SEARCH\(\2,\$B\$\1\)\)\)\)/;
  var LINK = /^=HYPERLINK\("([^"]*)"&\$A(\d+)&"([^"]*)","([^"]*)"\)$/;
  var blank = function (v) {
    return v === '' || v === null || v === undefined;
  };

  /** `cell(a1)`: a cell's value on the same sheet ("C9", "B2"). Returns what the cell shows, or null for another formula. */
  function scorecardValue(formula, cell) {
    var m = LINK.exec(formula);
    if (m) return m[4];
    m = VERDICT.exec(formula);
    if (!m) return null;
    var r = m[1];
    if (blank(cell('A' + r))) return '';
    if (!blank(cell(m[2] + r))) return m[3];
    var rest = m[4];
    if (/^"[^"]*"$/.test(rest)) return rest.slice(1, -1);
    var d = DECIDED.exec(rest);
    if (!d) return null;
    var conds = d[1],
      ok = true;
    while (conds.length) {
      var c = MIN.exec(conds),
        g = c ? null : GRADE.exec(conds);
      var t = c || g;
      if (!t) return null;
      var limit = cell('B' + t[1]),
        v = cell(t[2]);
      // Sheets compares a number with a number; a text threshold is above every number.
      var holds =
        blank(limit) ||
        (c
          ? typeof v === 'number' && typeof limit === 'number' && v >= limit
          : !blank(v) && String(limit).toLowerCase().indexOf(String(v).toLowerCase()) >= 0);
      ok = ok && holds;
      conds = conds.slice(t[0].length).replace(/^,/, '');
    }
    return ok ? d[2] : d[3];
  }

  /** The background of a cell showing `shown` at (row, col) under the sheet's rules ({text, background, ranges}), or null. */
  function ruleBackground(rules, row, col, shown) {
    for (var i = 0; i < (rules || []).length; i++) {
      var rule = rules[i];
      var inside = rule.ranges.some(function (g) {
        return row >= g.row && row < g.row + g.numRows && col >= g.col && col < g.col + g.numCols;
      });
      if (inside && String(shown) === rule.text) return rule.background;
    }
    return null;
  }

  if (typeof module === 'object' && module.exports)
    module.exports = { scorecardValue: scorecardValue, ruleBackground: ruleBackground };
  else root.scorecardValue = scorecardValue;
})(this);
