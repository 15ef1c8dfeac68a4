// What every command-line script here shares: whether a module is the script node was started
// with, and its flags read strictly (an unknown flag or a typo is refused, never ignored).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const real = (file) => {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
};

/**
 * Whether the module whose `import.meta.url` is given is the script node runs (`node x.mjs`,
 * however the path is written: relative, absolute or through a symlink), not an import of it.
 */
export function isMain(moduleUrl) {
  const script = process.argv[1];
  return script !== undefined && real(resolve(script)) === real(fileURLToPath(moduleUrl));
}

/** `--name` or `--name <value>` for each option of a parseArgs `options` object. */
export function knownFlags(options) {
  return Object.entries(options)
    .map(([name, o]) => `--${name}${o.type === 'string' ? ' <value>' : ''}${o.short ? ` (-${o.short})` : ''}`)
    .join(', ');
}

/**
 * The script's flags, by `util.parseArgs` in strict mode. An unknown flag, a flag without its
 * value, a value given to a boolean flag or a positional argument where none is allowed prints
 * the reason, the known flags and `usage`, and exits with status 2. `--help` (-h) prints `usage`
 * and the known flags and exits 0. Returns parseArgs' { values, positionals }.
 */
export function parseFlags({ options = {}, allowPositionals = false, usage = '', args = process.argv.slice(2) } = {}) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } };
  const help = () => `${usage ? `${usage}\n` : ''}Known flags: ${knownFlags(all)}`;
  let parsed;
  try {
    parsed = parseArgs({ args, options: all, strict: true, allowPositionals });
  } catch (e) {
    process.stderr.write(`${e.message}\n${help()}\n`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(`${help()}\n`);
    process.exit(0);
  }
  return parsed;
}
