/**
 * The leak check tests run on a stand-in runtime: where an API key shows up that it must not. Apart
 * from runtime.ts, which runs executions, because it only reads what the executions left behind.
 */
import type { ExecutionRecord } from './execution';
import type { LogEntry, RequestRecord } from './internal/types';
import type { CacheStores } from './services/cache';
import type { Outbox } from './services/mail';
import type { SpreadsheetModel } from './services/spreadsheetModel';
import type { UiRecorder } from './services/ui';

/** What an execution can leave text in (the runtime's public state). */
interface SecretPlaces {
  readonly logs: LogEntry[];
  readonly caches: CacheStores;
  readonly requests: RequestRecord[];
  readonly spreadsheet: SpreadsheetModel;
  readonly ui: UiRecorder;
  readonly executions: ExecutionRecord[];
  readonly mail: Outbox;
}

/** See GasRuntime.findSecret. */
export function findSecret(rt: SecretPlaces, secret: string): string[] {
  if (!secret) throw new Error('findSecret: empty secret');
  const hits: string[] = [];
  const has = (s: unknown) => typeof s === 'string' && s.includes(secret);
  rt.logs.forEach((l, i) => has(l.message) && hits.push(`log[${i}] ${l.level}`));
  for (const store of rt.caches.all()) {
    for (const e of store.dump()) {
      if (has(e.key)) hits.push(`cache ${store.name} key ${e.key.slice(0, 40)}`);
      if (has(e.value)) hits.push(`cache ${store.name} value of ${e.key.slice(0, 40)}`);
    }
  }
  rt.requests.forEach((r, i) => {
    if (has(r.requestedUrl) || has(r.url)) hits.push(`request[${i}] url`);
    if (has(r.payload)) hits.push(`request[${i}] payload`);
  });
  for (const sheet of rt.spreadsheet.sheets) {
    sheet
      .getValues()
      .forEach((row, r) => row.forEach((v, c) => has(String(v)) && hits.push(`cell ${sheet.name}!R${r + 1}C${c + 1}`)));
    sheet.charts.forEach((c) => has(JSON.stringify(c.options)) && hits.push(`chart ${sheet.name}#${c.id} options`));
  }
  rt.ui.alerts.forEach((a, i) => (has(a.prompt) || has(a.title)) && hits.push(`alert[${i}]`));
  rt.ui.toasts.forEach((t, i) => (has(t.message) || has(t.title)) && hits.push(`toast[${i}]`));
  rt.mail.sent.forEach(
    (m, i) =>
      [m.subject, m.body, m.htmlBody, ...m.to].some(has) && hits.push(`email[${i}] (${m.subject.slice(0, 40)})`),
  );
  rt.executions.forEach((e) => has(e.error) && hits.push(`execution ${e.id} (${e.fnName}) error`));
  return hits;
}
