/**
 * GET /media/...: the pictures and videos that answers link to. Free and needing no key, like a
 * CDN: never billed, counted apart from API requests (stats.media). A link must carry a valid
 * signature and not be past its expiry, else 403 with the text real CDNs answer.
 */
import type * as http from 'node:http';
import type { Runtime } from '../runtime';
import { MEDIA_PREFIX } from './links';
import { drawPicture } from './pictures';
import { clipMp4 } from './video';

const PATH = /^\/(p|v|s|h|avatars)\/([A-Za-z0-9_.-]+)\.(png|mp4)$/;

// Drawing and compressing a picture takes a few milliseconds; feeds show the same ones again and again.
const pictures = new Map<string, Buffer>();
const PICTURES_KEPT = 500;
function pictureAt(kind: string, name: string): Buffer {
  const key = `${kind}/${name}`;
  let png = pictures.get(key);
  if (png) {
    pictures.delete(key); // re-inserted below: the Map's order is then least recently used first
  } else {
    png = drawPicture(kind, name);
    if (pictures.size >= PICTURES_KEPT) pictures.delete(pictures.keys().next().value as string);
  }
  pictures.set(key, png);
  return png;
}

export function serveMedia(rt: Runtime, req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
  const text = (status: number, message: string) => {
    rt.stats.countMedia(status, 0);
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(message)),
    });
    res.end(message);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Media links answer GET and HEAD only.');
  const path = url.pathname.slice(MEDIA_PREFIX.length);
  const m = PATH.exec(path);
  if (!m) return text(404, 'Not found');
  const check = rt.media.check(path, url.searchParams.get('exp'), url.searchParams.get('sig'), rt.clock.now());
  if (check === 'expired') return text(403, 'URL signature expired');
  if (check === 'mismatch') return text(403, 'URL signature mismatch');
  const [, kind, name, ext] = m;
  const body = ext === 'mp4' ? clipMp4() : pictureAt(kind, name);
  rt.stats.countMedia(200, req.method === 'HEAD' ? 0 : body.length);
  res.writeHead(200, {
    'content-type': ext === 'mp4' ? 'video/mp4' : 'image/png',
    'content-length': String(body.length),
    // A signed link's bytes never change; it may be kept until it expires.
    'cache-control': `private, max-age=${Math.max(0, Number(url.searchParams.get('exp')) - Math.floor(rt.clock.now() / 1000))}`,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
