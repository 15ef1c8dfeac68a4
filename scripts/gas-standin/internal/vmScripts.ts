/**
 * The code the runtime evaluates in a script realm: the add-on's files, compiled once and
 * re-run in every fresh global scope, and the small scripts it runs beside them.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { ScriptFile } from '../options';

/** Calls the function the runtime stored as `__gasInvoke__`, so the vm timeout covers the call. */
export const INVOKE = new vm.Script('globalThis.__gasInvoke__()', { filename: 'gas-invoke.js' });
/** Makes the script's Date follow the runtime's clock. */
export const DATE_PATCH = new vm.Script(
  `(function (now) {
    var D = Date;
    globalThis.Date = new Proxy(D, {
      construct: function (t, args, nt) { return Reflect.construct(t, args.length ? args : [now()], nt); },
      apply: function () { return new D(now()).toString(); },
      get: function (t, p, r) { return p === 'now' ? now : Reflect.get(t, p, r); }
    });
  })`,
  { filename: 'gas-date.js' },
);
/** What google.script.run may call: the global functions the loaded files define. */
export const FUNCTION_NAMES = new vm.Script(
  "Object.keys(globalThis).filter(function (k) { return typeof globalThis[k] === 'function'; })",
  {
    filename: 'gas-names.js',
  },
);

export interface CompiledFile {
  name: string;
  script: vm.Script;
  bytes: number;
}

/**
 * Scripts compiled on this thread, by name and text: a runtime evaluates its compiled files in a
 * fresh context for every execution (a project is compiled once and run many times), and runtimes
 * of the same files share them too. Each context still runs the code cold (no shared feedback).
 */
const compiled = new Map<string, vm.Script>();

export function compileFiles(files: ScriptFile[]): CompiledFile[] {
  return files.map((f) => {
    const name = typeof f === 'string' ? path.basename(f) : f.name;
    const code = typeof f === 'string' ? fs.readFileSync(f, 'utf8') : f.code;
    const id = `${name}\n${code}`;
    let script = compiled.get(id);
    if (!script) compiled.set(id, (script = new vm.Script(code, { filename: name })));
    return { name, script, bytes: Buffer.byteLength(code) };
  });
}
