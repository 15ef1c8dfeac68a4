/**
 * The action node's execute(): read and check every item (input.ts), run the calls under the
 * execution's credit cap (engine.ts, credits.ts), turn each item's result into output by the one
 * per-item policy (outcome.ts), attach media, and say what was left out.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { RunStoppedError } from '@igdata/core';
import { baseUrlOf, documented, isRunStoppedError } from '@igdata/core';
import { executionCredits } from './credits';
import type { ItemResult } from './engine-types';
import { runItemCalls } from './engine';
import { readInput } from './input';
import type { MediaOptions } from './media';
import { mediaLimitsOf, mediaSelection } from './media';
import { downloadMedia } from './media-download';
import { DEFAULT_ON_NOT_FOUND, outputOf } from './disposition';
import { decide, failuresAsItems, mediaFailure, runFailure } from './outcome';
import { stopNotice } from './output';
import { CREDENTIAL, n8nClient } from './transport';
import { MAX_CONCURRENCY } from './options';
import { memoryOf } from './pace-memory';
import { keepForRetry, takeKept } from './retry';

/** The calls, run under the cap this node's runs share in the current execution. */
async function runCalls(
  ctx: IExecuteFunctions,
  input: ReturnType<typeof readInput>,
): Promise<(ItemResult | undefined)[]> {
  if (!input.calls.some(Boolean)) return [];
  const credits = executionCredits(ctx);
  // Retry On Fail: the try before this one was paid for these very calls and threw (retry.ts).
  const again = takeKept(ctx, input.calls);
  if (again) {
    credits.runs++;
    return again;
  }
  const client = n8nClient(ctx);
  try {
    const config = await client.config();
    const credential = ctx.getNode().credentials?.[CREDENTIAL]?.id ?? '';
    const options = {
      concurrency: input.concurrencySet ? input.concurrency : MAX_CONCURRENCY,
      concurrencySet: input.concurrencySet,
      memory: memoryOf(baseUrlOf(config), credential),
      creditCap: input.creditCap,
      tally: credits.tally,
      earlierRuns: credits.runs,
    };
    return await runItemCalls(config, input.calls, client.io, options);
  } finally {
    credits.runs++;
  }
}

export async function executeIgData(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const input = readInput(this, items);
  const results = await runCalls(this, input);
  const continueOnFail = failuresAsItems(this);
  const dispositions = input.perItem.map(({ endpoint, options }, i) =>
    decide(i, results[i], input.early[i], {
      endpoint,
      call: input.calls[i]?.call,
      simplify: options.simplify,
      includeMeta: options.includeMeta,
      onNotFound: options.onNotFound ?? DEFAULT_ON_NOT_FOUND,
      continueOnFail,
    }),
  );
  const failure = runFailure(
    this.getNode(),
    dispositions,
    input.calls.map((c) => c?.call),
  );
  if (failure) {
    keepForRetry(this, input.calls, results);
    throw failure;
  }

  const { out, answers, hints, missing } = outputOf(dispositions);
  const owners = out.map((o) => (o.pairedItem as { item: number }).item);
  for (const message of hints) this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
  await attachMedia(
    this,
    out,
    answers,
    async () => baseUrlOf(await n8nClient(this).config()),
    (k) => {
      const { endpoint, options } = input.perItem[owners[k]];
      // Only the endpoint's media links: a field an expression names otherwise (a link an account
      // owner chose) is never fetched, and the item says so.
      const { fields, refused } = mediaSelection(options.downloadMedia, documented(endpoint));
      return fields.length || refused
        ? { fields, refused, ...mediaLimitsOf(options), concurrency: input.concurrency }
        : undefined;
    },
  );
  // Items left out are not in the output to say it: the last item does, as a run's stop does.
  if (missing.length) addNotice(out, missing.join(' '));
  const stopped = results.map((o) => (o && !o.ok ? o.error : undefined)).find(isRunStoppedError);
  if (stopped) noteStop(this, out, stopped);
  return [out];
}

function addNotice(out: INodeExecutionData[], notice: string): void {
  const last = out[out.length - 1];
  if (last) last.json._notice = last.json._notice ? `${String(last.json._notice)} ${notice}` : notice;
}

/**
 * Options > Download Media: the chosen media of each answered item as binary properties. A medium
 * over the size limit is left out with a notice (`_notice` and a warning hint); a failed download
 * is what outcome.ts's mediaFailure says.
 */
async function attachMedia(
  ctx: IExecuteFunctions,
  out: INodeExecutionData[],
  answers: (Record<string, unknown> | undefined)[],
  baseUrl: () => Promise<string>,
  options: (k: number) => MediaOptions | undefined,
): Promise<void> {
  if (!answers.some((a, k) => a && options(k))) return;
  const media = await downloadMedia(ctx, answers, options, await baseUrl());
  const skipped: string[] = [];
  media.forEach((m, k) => {
    if (!m) return;
    const item = out[k];
    if (Object.keys(m.binary).length) item.binary = { ...(item.binary ?? {}), ...m.binary };
    for (const notice of m.skipped) {
      item.json._notice = item.json._notice ? `${String(item.json._notice)} ${notice}` : notice;
      skipped.push(`Item ${(item.pairedItem as { item: number }).item}: ${notice}`);
    }
    const failed = mediaFailure(m.failures, failuresAsItems(ctx));
    if (!failed) return;
    if ('fields' in failed) {
      Object.assign(item.json, failed.fields);
      return;
    }
    item.json._notice = item.json._notice ? `${String(item.json._notice)} ${failed.notice}` : failed.notice;
    skipped.push(`Item ${(item.pairedItem as { item: number }).item}: ${failed.notice}`);
  });
  // One hint for the execution, not one per post: every item concerned says it in _notice.
  if (skipped.length) {
    const more = skipped.length > 1 ? ` (and ${skipped.length - 1} more media; see _notice on the items)` : '';
    ctx.addExecutionHints({ message: `${skipped[0]}${more}`, type: 'warning', location: 'outputPane' });
  }
}

/**
 * An execution that stopped part-way ends as a success with what it was paid for, as n8n's own nodes
 * end at a limit: a warning hint on the output and, without Continue On Fail (where the items not
 * looked up are not in the output to say it), the same sentence as `_notice` on the last item.
 */
function noteStop(ctx: IExecuteFunctions, out: INodeExecutionData[], stopped: RunStoppedError): void {
  const notice = stopNotice(stopped);
  ctx.addExecutionHints({ message: notice, type: 'warning', location: 'outputPane' });
  if (!failuresAsItems(ctx)) addNotice(out, notice);
}
