/** The script's `console` and `Logger`: both write through the Host, so every line lands in runtime.logs with its execution. */
import util from 'node:util';
import type { Host, LogEntry } from './types';

export function createConsole(host: Host) {
  const out =
    (level: LogEntry['level']) =>
    (...args: unknown[]) =>
      host.log(level, util.format(...args));
  return {
    log: out('log'),
    info: out('info'),
    warn: out('warn'),
    error: out('error'),
    debug: out('debug'),
    toString: () => 'console',
  };
}

/** `executionId` is the running execution's: Logger.getLog() returns only its lines. */
export function createLogger(host: Host, logs: LogEntry[], executionId: () => number | undefined) {
  const self = {
    log: (data: unknown, ...values: unknown[]) => {
      let text: string;
      if (values.length && typeof data === 'string') {
        let i = 0;
        text = data.replace(/%s/g, () => String(values[i++]));
      } else text = typeof data === 'string' ? data : util.format(data);
      host.log('Logger', text);
      return self;
    },
    getLog: () =>
      logs
        .filter((l) => l.level === 'Logger' && l.executionId === executionId())
        .map((l) => l.message)
        .join('\n'),
    clear: () => undefined,
    toString: () => 'Logger',
  };
  return self;
}
