// Parses the formulas the Sheets preview evaluates: =NAME(arg, ...) with "strings" ("" escapes a
// quote), numbers, TRUE/FALSE, empty arguments and A1 or A1:B9 references. Returns
// { name, args: [{t:'s'|'n'|'b'|'e'|'r', v|a1}] } or { error }. One parser for the preview page
// (served as /formula.js) and for test/examples.test.ts, which runs the documented formulas.
(function (root) {
  'use strict';
  function parseFormula(text) {
    var m = /^=\s*([A-Za-z][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
    if (!m) return { error: 'Formula parse error. The preview evaluates =NAME(arguments) formulas only.' };
    var src = m[2],
      i = 0,
      args = [];
    if (/^\s*$/.test(src)) return { name: m[1], args: [] };
    for (;;) {
      while (src[i] === ' ') i++;
      var rest = src.slice(i),
        t;
      if (src[i] === '"') {
        var s = '';
        for (i++; ; i++) {
          if (i >= src.length) return { error: 'Formula parse error: unterminated string.' };
          if (src[i] === '"') {
            if (src[i + 1] === '"') {
              s += '"';
              i++;
            } else {
              i++;
              break;
            }
          } else s += src[i];
        }
        args.push({ t: 's', v: s });
      } else if ((t = /^\$?[A-Za-z]{1,3}\$?\d+(:\$?[A-Za-z]{1,3}\$?\d+)?(?![\w(])/.exec(rest))) {
        args.push({ t: 'r', a1: t[0].replace(/\$/g, '').toUpperCase() });
        i += t[0].length;
      } else if ((t = /^(TRUE|FALSE)(?![\w(])/i.exec(rest))) {
        args.push({ t: 'b', v: t[1].toUpperCase() === 'TRUE' });
        i += t[0].length;
      } else if ((t = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(rest))) {
        args.push({ t: 'n', v: Number(t[0]) });
        i += t[0].length;
      } else if (src[i] === ',' || src[i] === ';' || i >= src.length || /^\s*$/.test(rest)) {
        args.push({ t: 'e' });
      } else {
        return { error: 'Formula parse error near: ' + rest.slice(0, 20) };
      }
      while (src[i] === ' ') i++;
      if (i >= src.length) break;
      if (src[i] !== ',' && src[i] !== ';') return { error: 'Formula parse error near: ' + src.slice(i, i + 20) };
      i++;
    }
    return { name: m[1], args: args };
  }
  if (typeof module === 'object' && module.exports) module.exports = { parseFormula: parseFormula };
  else root.parseFormula = parseFormula;
})(this);
