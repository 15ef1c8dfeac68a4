/** A1 notation: parsing and printing. Rows and columns are 1-based. */

export interface A1Ref {
  sheetName?: string;
  row: number;
  col: number;
  /** null = to the end of the sheet (open ranges like A:A, A2:A, 1:3). */
  numRows: number | null;
  numCols: number | null;
}

export function colToNum(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function numToCol(n: number): string {
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const CELL = /^\$?([A-Za-z]*)\$?(\d*)$/;

/** Parses "A1", "B2:C9", "A:A", "A2:A", "1:3", "Sheet1!A1", "'My sheet'!A1:B2". Null when invalid. */
export function parseA1(input: string): A1Ref | null {
  let text = input.trim();
  let sheetName: string | undefined;
  const bang = text.lastIndexOf('!');
  if (bang >= 0) {
    sheetName = text.slice(0, bang);
    if (sheetName.startsWith("'") && sheetName.endsWith("'")) sheetName = sheetName.slice(1, -1).replace(/''/g, "'");
    text = text.slice(bang + 1);
  }
  const [a, b] = text.split(':');
  const ma = CELL.exec(a ?? '');
  if (!ma || (!ma[1] && !ma[2])) return null;
  const c1 = ma[1] ? colToNum(ma[1]) : null;
  const r1 = ma[2] ? Number(ma[2]) : null;
  if (b === undefined) {
    if (c1 === null || r1 === null) return null;
    return { sheetName, row: r1, col: c1, numRows: 1, numCols: 1 };
  }
  const mb = CELL.exec(b);
  if (!mb || (!mb[1] && !mb[2])) return null;
  const c2 = mb[1] ? colToNum(mb[1]) : null;
  const r2 = mb[2] ? Number(mb[2]) : null;
  const row = Math.min(r1 ?? 1, r2 ?? r1 ?? 1);
  const col = Math.min(c1 ?? 1, c2 ?? c1 ?? 1);
  const numRows = r1 === null || r2 === null ? null : Math.abs(r2 - r1) + 1;
  const numCols = c1 === null || c2 === null ? null : Math.abs(c2 - c1) + 1;
  if ((r1 === null) !== (r2 === null) && r1 === null) return null; // "A:A2" is not valid
  return { sheetName, row: r1 === null ? 1 : row, col: c1 === null ? 1 : col, numRows, numCols };
}

export function toA1(row: number, col: number, numRows = 1, numCols = 1): string {
  const start = `${numToCol(col)}${row}`;
  if (numRows === 1 && numCols === 1) return start;
  return `${start}:${numToCol(col + numCols - 1)}${row + numRows - 1}`;
}
