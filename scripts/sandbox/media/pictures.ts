/**
 * The sandbox's pictures: small PNGs drawn from the media path alone (a hash of it picks the
 * colours), so the same link gives the same bytes on every run and every seed that issues it.
 */
import { hash32 } from '../world/random';
import { encodePng } from './png';

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** Width and height by kind of media: square posts, 9:16 stories, small avatars and covers. */
function sizeOf(kind: string): [number, number] {
  if (kind === 's') return [180, 320];
  if (kind === 'avatars' || kind === 'h') return [150, 150];
  return [320, 320];
}

/**
 * A gradient background and a disc; avatars get a head-and-shoulders figure instead, and the
 * default avatar is the grey one real platforms show for accounts without a picture.
 */
export function drawPicture(kind: string, name: string): Buffer {
  const [w, h] = sizeOf(kind);
  const seed = hash32('sandbox-picture', kind, name);
  const grey = kind === 'avatars' && name === 'default-avatar';
  const hue = seed % 360;
  const top = grey ? hsl(0, 0, 0.86) : hsl(hue, 0.55, 0.62);
  const bottom = grey ? hsl(0, 0, 0.86) : hsl((hue + 40) % 360, 0.6, 0.38);
  const accent = grey ? hsl(0, 0, 0.97) : hsl((hue + 180) % 360, 0.5, 0.8);
  const rgb = new Uint8Array(w * h * 3);
  const m = Math.min(w, h);
  const cx = w / 2;
  const person = kind === 'avatars';
  const cy = person ? h * 0.4 : h / 2 + ((seed >>> 9) % Math.round(m / 5)) - m / 10;
  const r = person ? m * 0.2 : m * (0.18 + ((seed >>> 17) % 12) / 100);
  for (let y = 0; y < h; y++) {
    const t = y / (h - 1);
    const bg: Rgb = [0, 1, 2].map((i) => Math.round(top[i] + (bottom[i] - top[i]) * t)) as Rgb;
    for (let x = 0; x < w; x++) {
      const inHead = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
      const inShoulders = person && (x - cx) ** 2 + (y - h * 1.05) ** 2 <= (m * 0.42) ** 2;
      const c = inHead || inShoulders ? accent : bg;
      const o = (y * w + x) * 3;
      rgb[o] = c[0];
      rgb[o + 1] = c[1];
      rgb[o + 2] = c[2];
    }
  }
  return encodePng(w, h, rgb);
}
