/** Opaque paging cursors that a client must pass back unchanged. */
import { hash32 } from './world/random';
import { badParam } from './errors';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/**
 * Cursors are "v1+" + base64 (standard alphabet, so they hold "+", "/" and often "=") of
 * `<position>|<checksum>`; the checksum binds them to the seed, the endpoint and the target, so a
 * tampered or foreign cursor is refused with 400.
 */
export class Cursors {
  constructor(private readonly secret: number) {}
  encode(scope: string, position: string): string {
    return `v1+${b64(`${position}|${hash32(this.secret, scope, position).toString(36)}`)}`;
  }
  decode(scope: string, cursor: string | undefined): string | null {
    if (cursor === undefined || cursor === '') return null;
    const fail = () =>
      badParam(
        'cursor',
        'cursor must be the next_cursor value of the previous page, passed back unchanged; this one is not valid for this request.',
      );
    if (!cursor.startsWith('v1+') || !/^[A-Za-z0-9+/]+=*$/.test(cursor.slice(3))) throw fail();
    const text = unb64(cursor.slice(3));
    const bar = text.lastIndexOf('|');
    if (bar < 0) throw fail();
    const position = text.slice(0, bar);
    if (text.slice(bar + 1) !== hash32(this.secret, scope, position).toString(36)) throw fail();
    return position;
  }
}
