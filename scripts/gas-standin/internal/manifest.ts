/** Finds the add-on's appsscript.json (scopes, time zone, URL whitelist) the way createGasRuntime's `manifest` option says. */
import fs from 'node:fs';
import path from 'node:path';
import type { GasRuntimeOptions } from '../options';
import type { AppsScriptManifest } from './types';

export function loadManifest(m: GasRuntimeOptions['manifest'], dir: string): AppsScriptManifest | null {
  if (m === null) return null;
  if (typeof m === 'object') return m;
  const file = m ?? path.join(dir, 'appsscript.json');
  if (!fs.existsSync(file)) {
    if (m !== undefined) throw new Error(`manifest not found: ${file}`);
    return null;
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as AppsScriptManifest;
}
