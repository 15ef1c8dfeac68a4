/** A PNG's width and height from its IHDR chunk (the first, after the 8-byte signature); null when the file is no PNG. */
import { readFileSync } from 'node:fs';

export function pngSize(file: string): [number, number] | null {
  const b = readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG' || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}
