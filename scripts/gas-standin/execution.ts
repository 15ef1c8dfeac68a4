/** One execution as the caller sees it: per-call options, the record the runtime keeps, and how it fails. */
import type { AuthModeName, Execution, ExecutionKind } from './internal/types';

export interface CallOptions {
  /** 'custom' (custom function: 30 s, read-only, anonymous), 'script' (menu/sidebar/editor run: 6 min), 'trigger' (simple trigger: 30 s). */
  kind?: ExecutionKind;
  /** Override the time limit (ms). */
  limitMs?: number;
  /** User at the keyboard for this execution (default runtime.activeUser). */
  user?: string;
  /** Auth mode of a trigger execution (default LIMITED). */
  authMode?: AuthModeName;
  /** Calling cell of a custom function ('Sheet1!C2'): becomes the active range. */
  cell?: string;
  /** Override freshContextPerCall for this call. */
  freshContext?: boolean;
}

export interface ExecutionRecord {
  id: number;
  fnName: string;
  kind: ExecutionKind;
  user: string;
  /** Total ms (clock time, virtual sleeps included). */
  ms: number;
  /** ms spent creating the global scope and evaluating the files (0 when the context was reused). */
  loadMs: number;
  ok: boolean;
  error?: string;
  timedOut?: boolean;
}

/** An execution that failed: the script threw, or Apps Script would have stopped it. */
export class GasScriptError extends Error {
  constructor(
    message: string,
    /** The script error's name ('Exception' for Apps Script service errors, 'TypeError', ...). */
    readonly gasName: string,
    readonly fnName: string,
    readonly kind: ExecutionKind,
    readonly executionId: number,
    readonly timedOut: boolean,
    /** What the script threw (in the script's realm), if anything. */
    readonly original?: unknown,
  ) {
    super(message);
    this.name = 'GasScriptError';
  }

  /** As Apps Script shows it: "Exception: Request failed ...". */
  get display(): string {
    return `${this.gasName}: ${this.message}`;
  }
}

export const TIME_LIMIT_MESSAGE = 'Exceeded maximum execution time';

export function isCallOptions(v: unknown): v is CallOptions {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const allowed = new Set(['kind', 'limitMs', 'user', 'authMode', 'cell', 'freshContext']);
  return keys.length > 0 && keys.every((k) => allowed.has(k));
}

/**
 * What a script's failure becomes: the time limit's own message when the execution ran out of time
 * (the vm's timeout or the clock), else the thrown error's message and name.
 */
export function translateError(
  e: unknown,
  exec: Execution,
  now: number,
  fail: (m: string, n: string, t: boolean, o?: unknown) => never,
): never {
  const code = (e as { code?: string } | null)?.code;
  if (exec.timedOut || code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' || now - exec.startedAt > exec.limitMs) {
    exec.timedOut = true;
    return fail(TIME_LIMIT_MESSAGE, 'Exception', true, e);
  }
  if (e !== null && typeof e === 'object' && 'message' in e) {
    const err = e as { message: unknown; name?: unknown };
    return fail(String(err.message), String(err.name ?? 'Error'), false, e);
  }
  return fail(String(e), 'Error', false, e);
}
