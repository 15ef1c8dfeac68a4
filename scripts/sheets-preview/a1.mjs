// A1 notation for the preview's grid (cells, ranges, sheet names in a formula's cell reference):
// pure helpers, apart from server.mjs and cells.mjs, which both read and write cells by A1.

const colNum = (letters) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
const colName = (n) => {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const cellRe = /^\$?([A-Za-z]{1,3})\$?(\d{1,6})$/;
export function parseCell(a1) {
  const m = cellRe.exec(String(a1).trim());
  if (!m) throw new Error(`Bad cell reference: ${a1}`);
  return { row: Number(m[2]), col: colNum(m[1]) };
}
export function parseRange(a1) {
  const [a, b] = String(a1).split(':');
  const p = parseCell(a);
  const q = b === undefined ? p : parseCell(b);
  return {
    row: Math.min(p.row, q.row),
    col: Math.min(p.col, q.col),
    rows: Math.abs(q.row - p.row) + 1,
    cols: Math.abs(q.col - p.col) + 1,
    single: b === undefined,
  };
}
export const a1Of = (row, col) => `${colName(col)}${row}`;

/** A sheet name as a cell reference quotes it. */
export const quoteName = (name) => (/^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);
