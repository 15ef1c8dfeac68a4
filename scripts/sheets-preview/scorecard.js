// Evaluates the two formula shapes the vet scorecard writes (sheets-addon/src/vet/scorecard.ts) as
// Sheets would, and applies the sheet's conditional colours to what cells show:
//   =IF($A9="","",IF($J9<>"","no data",IF(AND(OR($B$2="",AND(ISNUMBER(C9),C9>=$B$2)),
//      OR($B$5="",AND(F9<>"",ISNUMBER(SEARCH(F9,$B$5))))),"pass","fail")))   (or ,"review")))
//   =HYPERLINK("https://www.instagram.com/"&$A9&"/","profile")
// and the one custom formula of a conditional format the benchmark writes (its leader: formulaHolds).
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

  // The benchmark's leader (sheets-addon/src/benchmark/report-sheet.ts): =AND(ISNUMBER(B3),B3=MAX($B3:$G3)).
  var LEADER = /^=AND\(ISNUMBER\(([A-Z]+)(\d+)\),\1\2=(MAX|MIN)\(\$([A-Z]+)\2:\$([A-Z]+)\2\)\)$/;
  function colNumber(letters) {
    var n = 0;
    for (var i = 0; i < letters.length; i++) n = n * 26 + letters.charCodeAt(i) - 64;
    return n;
  }

  /**
   * Whether a custom-formula rule holds at (row, col) of its range `g`, its references relative to the range's
   * top-left cell as in Sheets; `cell(row, col)`: a value of the sheet. Null for a formula of another shape.
   */
  function formulaHolds(formula, g, row, col, cell) {
    var m = LEADER.exec(formula);
    if (!m) return null;
    var r = Number(m[2]) + (row - g.row);
    var v = cell(r, colNumber(m[1]) + (col - g.col));
    if (typeof v !== 'number') return false;
    var nums = [];
    for (var c = colNumber(m[4]); c <= colNumber(m[5]); c++) if (typeof cell(r, c) === 'number') nums.push(cell(r, c));
    return v === (m[3] === 'MAX' ? Math.max : Math.min).apply(null, nums);
  }

  /**
   * The background of a cell showing `shown` at (row, col) under the sheet's rules ({text, formula, background,
   * ranges}), or null; `cell(row, col)`: the sheet's values, for a custom formula.
   */
  function ruleBackground(rules, row, col, shown, cell) {
    for (var i = 0; i < (rules || []).length; i++) {
      var rule = rules[i];
      var g = rule.ranges.find(function (g) {
        return row >= g.row && row < g.row + g.numRows && col >= g.col && col < g.col + g.numCols;
      });
      if (!g) continue;
      if (rule.formula ? cell && formulaHolds(rule.formula, g, row, col, cell) : String(shown) === rule.text)
        return rule.background;
    }
    return null;
  }

  if (typeof module === 'object' && module.exports)
    module.exports = { scorecardValue: scorecardValue, ruleBackground: ruleBackground, formulaHolds: formulaHolds };
  else root.scorecardValue = scorecardValue;
})(this);
