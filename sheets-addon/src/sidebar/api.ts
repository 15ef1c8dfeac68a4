/**
 * The sidebar's one way to the server: call(name, ...args) over google.script.run, typed by the
 * server functions' own signatures in SIDEBAR_API (sheets-addon/src/sidebar-api.ts). The import is
 * type-only: no server code enters the sidebar's bundle (the build checks its inputs).
 */
import type { SIDEBAR_API } from '../sidebar-api';

type Api = typeof SIDEBAR_API;
/** A server function the sidebar may call (a top-level stub of Code.js, generated from SIDEBAR_API). */
type ServerFunction = keyof Api;

/**
 * What google.script.run hands the success handler for a server value of type T: JSON-like, so an
 * undefined (an absent optional field) may arrive as null, and functions are dropped. A Date anywhere
 * would make the whole answer null: CheckedAnswers below refuses server functions that return one.
 */
type Received<T> = T extends (...args: never[]) => unknown
  ? never
  : T extends undefined
    ? null | undefined
    : T extends readonly (infer U)[]
      ? Received<U>[]
      : T extends object
        ? { [K in keyof T]: Received<T[K]> }
        : T;

/** The answer of server function K as the sidebar receives it. */
export type Answer<K extends ServerFunction> = Received<ReturnType<Api[K]>>;
/** The arguments of server function K. */
export type Args<K extends ServerFunction> = Parameters<Api[K]>;

/** True when a Date is somewhere in T (Apps Script turns such an answer into null). */
type HasDate<T> = T extends Date
  ? true
  : T extends readonly (infer U)[]
    ? HasDate<U>
    : T extends object
      ? true extends { [K in keyof T]-?: HasDate<T[K]> }[keyof T]
        ? true
        : false
      : false;
/** Fails the type check naming any server function whose answer holds a Date. */
type NoDateIn<K extends never> = K;
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- evaluated only for the type error it raises
type CheckedAnswers = NoDateIn<
  { [K in ServerFunction]: HasDate<ReturnType<Api[K]>> extends false ? never : K }[ServerFunction]
>;

type Runner = {
  withSuccessHandler(f: (value: unknown) => void): Runner;
  withFailureHandler(f: (error: unknown) => void): Runner;
} & { [K in ServerFunction]: (...args: Args<K>) => void };
declare const google: { script: { run: Runner } };

export function call<K extends ServerFunction>(name: K, ...args: Args<K>): Promise<Answer<K>> {
  return new Promise((resolve, reject) => {
    const runner = google.script.run
      .withSuccessHandler((value) => resolve(value as Answer<K>))
      .withFailureHandler((e) => reject(e && (e as Error).message ? e : new Error(String(e))));
    // (one call of one name: TypeScript cannot pair a generic name with its own arguments here)
    (runner[name] as (...a: Args<K>) => void)(...args);
  });
}
