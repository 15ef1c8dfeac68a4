// The built add-on in the Apps Script stand-in for the Sheets benchmarks: its requests to the
// production address go to the benchmark's sandbox, with the sandbox's key set.
import { join } from 'node:path';

/** `opts`: { createGasRuntime, sb (its url), key, dist (sheets-addon/dist), prod (the production base URL) }. */
export function addonRuntime({ createGasRuntime, sb, key, dist, prod }) {
  const rt = createGasRuntime({
    files: [join(dist, 'bundle.js'), join(dist, 'Code.js')],
    dir: dist,
    enforceUrlFetchWhitelist: true,
    startHttpThread: true,
    rewriteUrl: (u) => (u.startsWith(prod) ? sb.url + u.slice(prod.length) : u),
  });
  rt.properties.document.set('IGDATA_API_KEY', key);
  return rt;
}

/** Sheet1: a header, `column` from A2, selected; the sidebar opened (it installs the hourly trigger). */
export function columnRuntime(opts, column) {
  const rt = addonRuntime(opts);
  const sheet = rt.spreadsheet.sheet('Sheet1');
  sheet.setValues('A1', [['handle'], ...column.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${column.length + 1}`);
  rt.call('igSidebarState');
  return rt;
}
