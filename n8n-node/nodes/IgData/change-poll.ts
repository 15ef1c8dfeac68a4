/**
 * The poll of the trigger's "Account Changed" event: at most one check per period of its setting,
 * each reading every watched account's measure once (one lookup an account), evaluated by core's
 * change rule; one item per crossing, with before, after and the change. The rule's state lives in
 * the workflow's static data with the time of the last check; another rule starts afresh.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AnyIgError, ApiResult, Call, Crossing, RuleState } from '@igdata/core';
import {
  checkRule,
  checkRuleShape,
  crossingItem,
  describeRule,
  driveAsync,
  isIgError,
  measureOf,
  sendAll,
  stopsBulkRun,
  watchCalls,
} from '@igdata/core';
import { toNodeError } from './output';
import { n8nClient } from './transport';
import type { ChangeParams } from './change-description';
import { periodMs, ruleOf } from './change-description';

/** What the static data keeps: the rule in words (another rule starts afresh), the last check, the rule's state. */
interface ChangeState {
  rule: string;
  checkedAt: number;
  state: RuleState;
}

const itemOf = (c: Crossing): INodeExecutionData => ({ json: crossingItem(c) });

/** Whether a check is due: at most one in each period of the clock (periods, as n8n's cron fires on them). */
const isDue = (last: number, now: number, period: number): boolean =>
  period <= 0 || Math.floor(now / period) > Math.floor(last / period);

export async function pollChange(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
  const node = ctx.getNode();
  const param = <K extends keyof ChangeParams>(name: K, fallback: ChangeParams[K]) =>
    ctx.getNodeParameter(name, fallback) as ChangeParams[K];
  const p: ChangeParams = {
    accounts: param('accounts', ''),
    measure: param('measure', 'followers'),
    comparison: param('comparison', 'down'),
    threshold: param('threshold', 5),
    baseline: param('baseline', 'previous'),
    days: param('days', 7),
    checkEvery: param('checkEvery', 1),
    checkEveryUnit: param('checkEveryUnit', 'hours'),
  };
  let calls: Call[];
  const rule = ruleOf(p);
  try {
    checkRuleShape(rule);
    calls = watchCalls(rule, String(p.accounts));
  } catch (e) {
    if (isIgError(e)) throw toNodeError(node, e);
    throw new NodeOperationError(node, (e as Error).message);
  }
  const words = describeRule(rule);
  const manual = ctx.getMode() === 'manual';
  const staticData = ctx.getWorkflowStaticData('node');
  const stored = staticData.change as ChangeState | undefined;
  const same = stored?.rule === words ? stored : undefined;
  const now = Date.now();
  if (!manual && same && !isDue(same.checkedAt, now, periodMs(p))) return null;

  const { config: readConfig, io } = n8nClient(ctx);
  const outcomes = await driveAsync(sendAll(await readConfig(), calls), io);
  const values: Record<string, number | undefined> = {};
  let failed: { error: AnyIgError; call: Call } | undefined;
  outcomes.forEach((o, i) => {
    const handle = String(calls[i].params.handle);
    if (isIgError(o)) {
      // a bad key or an empty balance fails every lookup: say so now rather than skip them all
      if (stopsBulkRun(o)) throw toNodeError(node, o, calls[i]);
      failed ??= { error: o, call: calls[i] };
      values[handle] = undefined;
    } else values[handle] = measureOf(rule.measure, (o as ApiResult).data);
  });
  // an account whose lookup failed keeps its state and is checked again next time; all failing is an error
  if (failed && Object.values(values).every((v) => v === undefined)) throw toNodeError(node, failed.error, failed.call);
  const result = checkRule(rule, same?.state, now, values);
  if (manual) {
    // "Fetch Test Event": the shape of what fires, from this check's values; the state is untouched
    const sample: Crossing[] = result.crossings.length
      ? result.crossings
      : Object.entries(values)
          .filter((e): e is [string, number] => e[1] !== undefined)
          .map(([account, after]) => ({
            account,
            rule: words,
            measure: rule.measure,
            at: now,
            before: null,
            beforeAt: null,
            after,
            change: null,
            changePct: null,
          }));
    return sample.length ? [sample.map(itemOf)] : null;
  }
  staticData.change = { rule: words, checkedAt: now, state: result.state } as unknown as IDataObject;
  return result.crossings.length ? [result.crossings.map(itemOf)] : null;
}
