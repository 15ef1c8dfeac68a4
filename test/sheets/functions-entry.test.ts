/**
 * The generated entry file of the built add-on (sheets-addon/dist): every custom function a
 * top-level function with the JSDoc Sheets shows, and the manifest's runtime, scopes and allowed host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { endpoints } from '@igdata/core';
import { argLayout } from '../../sheets-addon/src/engine/layout';
import { DIST } from './harness';

describe('the built entry file', () => {
  const code = fs.readFileSync(path.join(DIST, 'Code.js'), 'utf8');
  test.each(endpoints.map((e) => [e.fn, e] as const))(
    '%s is a top-level function with @customfunction JSDoc',
    (fn, e) => {
      const m = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\nfunction ${fn}\\(([^)]*)\\)`).exec(code);
      expect(m).not.toBeNull();
      const [, doc, params] = m!;
      expect(doc).toContain('@customfunction');
      expect(doc).toMatch(new RegExp(`Example: =${fn}\\(`));
      const names = argLayout(e).map((a) => a.name);
      expect(params.split(',').map((s) => s.trim())).toEqual(names);
      for (const n of names) expect(doc).toMatch(new RegExp(`@param \\{[^}]+\\} ${n} \\S+`));
      expect(doc).not.toMatch(/\*\//);
    },
  );

  test("the manifest: V8, five minimal scopes (script.scriptapp for the hourly keep trigger, script.send_mail for a tracker's alert emails), urlFetchWhitelist of the API host", () => {
    const m = JSON.parse(fs.readFileSync(path.join(DIST, 'appsscript.json'), 'utf8'));
    expect(m.runtimeVersion).toBe('V8');
    expect(m.oauthScopes.sort()).toEqual([
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.external_request',
      'https://www.googleapis.com/auth/script.scriptapp',
      'https://www.googleapis.com/auth/script.send_mail',
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
    ]);
    expect(m.urlFetchWhitelist).toEqual(['https://api.igdata.dev/']);
  });
});
