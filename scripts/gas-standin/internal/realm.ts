/**
 * One global scope of script code (a Node `vm` context), and the conversions between its
 * objects and the host's. Apps Script code checks `Array.isArray`, `instanceof Date`,
 * `e instanceof Error`: values the services hand to the script are built with the script
 * realm's own constructors so those checks behave as in Apps Script.
 */
import vm from 'node:vm';

interface Intrinsics {
  Array: ArrayConstructor;
  Object: ObjectConstructor;
  Date: DateConstructor;
  Error: ErrorConstructor;
  TypeError: TypeErrorConstructor;
}

const INTRINSICS = new vm.Script('({ Array, Object, Date, Error, TypeError })', { filename: 'gas-intrinsics.js' });

export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  if (Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Deep copy of script values into the host realm (arrays, plain objects, dates; others by reference). */
export function fromRealm(v: unknown, seen = new Map<unknown, unknown>()): any {
  if (v === null || typeof v !== 'object') return v;
  if (seen.has(v)) return seen.get(v);
  if (isDate(v)) return new Date((v as Date).getTime());
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const item of v) out.push(fromRealm(item, seen));
    return out;
  }
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    seen.set(v, out);
    for (const k of Object.keys(v)) out[k] = fromRealm(v[k], seen);
    return out;
  }
  return v;
}

export class Realm {
  readonly ctx: vm.Context;
  private readonly g: Intrinsics;

  constructor(readonly name: string) {
    this.ctx = vm.createContext({}, { name });
    this.g = INTRINSICS.runInContext(this.ctx) as Intrinsics;
  }

  /** An Apps Script style exception: `e.name === 'Exception'`, `String(e) === 'Exception: ' + message`. */
  exception(message: string, name = 'Exception'): Error {
    const e = new this.g.Error(message);
    Object.defineProperty(e, 'name', { value: name, writable: true, configurable: true, enumerable: false });
    if (typeof e.stack === 'string') e.stack = e.stack.replace(/^Error/, name);
    return e;
  }

  typeError(message: string): Error {
    return new this.g.TypeError(message);
  }

  array<T>(items: Iterable<T>): T[] {
    const out = new this.g.Array<T>();
    for (const item of items) out.push(item);
    return out;
  }

  object(entries?: Iterable<[string, unknown]>): Record<string, any> {
    const out = new this.g.Object() as Record<string, unknown>;
    if (entries) for (const [k, val] of entries) out[k] = val;
    return out;
  }

  date(ms: number): Date {
    return new this.g.Date(ms);
  }

  /** Deep copy of host values into this realm (arrays, plain objects, dates; others by reference). */
  toRealm(v: unknown, seen = new Map<unknown, unknown>()): any {
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    if (isDate(v)) return this.date((v as Date).getTime());
    if (Array.isArray(v)) {
      const out = new this.g.Array<unknown>();
      seen.set(v, out);
      for (const item of v) out.push(this.toRealm(item, seen));
      return out;
    }
    if (isPlainObject(v)) {
      const out = new this.g.Object() as Record<string, unknown>;
      seen.set(v, out);
      for (const k of Object.keys(v)) out[k] = this.toRealm(v[k], seen);
      return out;
    }
    return v;
  }

  /** Signed Java-style byte array (what Apps Script's Byte[] looks like in JS). */
  bytes(buf: Uint8Array): number[] {
    const out = new this.g.Array<number>(buf.length);
    for (let i = 0; i < buf.length; i++) out[i] = buf[i] > 127 ? buf[i] - 256 : buf[i];
    return out;
  }
}

/** Accepts Apps Script byte arrays (signed or unsigned numbers) and returns a Buffer. */
export function bytesToBuffer(bytes: ArrayLike<number>): Buffer {
  const buf = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i++) buf[i] = Number(bytes[i]) & 0xff;
  return buf;
}

export function isByteArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number');
}
