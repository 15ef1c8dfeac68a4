/**
 * One bad item spoils nothing (issue 23), in the node's execute() in-process against the sandbox
 * (execute-kit.ts): an invalid item, a private account among many, On Not Found, duplicates billed
 * once, an item that fails after its retries, an answer not in the documented shape.
 */
import { execute, lookups, privateAccount, publicAccounts, sb, useSandbox } from './execute-kit';

useSandbox();

describe('one bad item spoils nothing (issue 23)', () => {
  test('an invalid item stops the execution before the first request, naming the item and the field: 0 credits', async () => {
    const handles = publicAccounts(100);
    handles[37] = '   ';
    const run = execute({ inputs: handles, parameters: lookups, key: sb.demoKey, continueOnFail: false });
    await expect(run).rejects.toMatchObject({
      name: 'NodeOperationError',
      message:
        'Item 37 of 100: handle must be a username, @username, numeric id or profile URL; got an empty value. (Not charged.)',
      context: { itemIndex: 37 },
    });
    expect(sb.stats()).toMatchObject({ total: 0, creditsBilled: 0 });
  });

  test('with Continue On Fail the invalid item is an error item and the other 99 are looked up', async () => {
    const handles = publicAccounts(100);
    handles[37] = '';
    const { out } = await execute({ inputs: handles, parameters: lookups, key: sb.demoKey, continueOnFail: true });
    expect(out).toHaveLength(100);
    expect(out[37].json).toMatchObject({ code: 'invalid_input', credits_charged: 0 });
    expect(sb.stats().creditsBilled).toBe(99);
  });

  test('a private account among 40, no Continue On Fail: the 39 paid answers and a found: false item for it, 40 credits', async () => {
    const handles = publicAccounts(39);
    handles.splice(17, 0, privateAccount());
    const { out, hints } = await execute({
      inputs: handles,
      parameters: lookups,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(sb.stats().creditsBilled).toBe(40);
    expect(out).toHaveLength(40);
    expect(out.map((o) => o.pairedItem)).toEqual(handles.map((_, item) => ({ item })));
    expect(out.filter((_, i) => i !== 17).map((o) => o.json.username)).toEqual(handles.filter((_, i) => i !== 17));
    expect(out[17].json).toEqual({
      found: false,
      handle: handles[17],
      message: `@${handles[17]} is private: no public data. (Charged 1 credit.)`,
      code: 'not_found',
      http_status: 404,
      credits_charged: 1,
      request_id: expect.any(String),
    });
    expect(hints).toEqual([]);
  });

  test('On Not Found: Skip leaves it out and says so; Error fails the execution', async () => {
    const handles = [...publicAccounts(3), privateAccount()];
    const skip = { ...lookups, options: { onNotFound: 'skip' } };
    const { out, hints } = await execute({ inputs: handles, parameters: skip, key: sb.demoKey, continueOnFail: false });
    expect(out.map((o) => o.json.username)).toEqual(handles.slice(0, 3));
    const said = `Item 3 skipped (Options > On Not Found): @${handles[3]} is private: no public data. (Charged 1 credit.)`;
    expect(out[2].json._notice).toBe(said);
    expect(hints.map((h) => h.message)).toEqual([said]);
    const error = { ...lookups, options: { onNotFound: 'error' } };
    await expect(
      execute({ inputs: handles, parameters: error, key: sb.demoKey, continueOnFail: false }),
    ).rejects.toMatchObject({ httpCode: '404', context: { itemIndex: 3 } });
  });

  test('duplicates of a private account are charged once: the sum of credits_charged is the bill', async () => {
    const who = privateAccount();
    const { out } = await execute({
      inputs: [who, `@${who}`, publicAccounts(1)[0]],
      parameters: lookups,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out.map((o) => o.json.credits_charged ?? 1)).toEqual([1, 0, 1]);
    expect(out[1].json).toMatchObject({ found: false, deduplicated: true });
    expect(sb.stats().creditsBilled).toBe(2);
    // The item served the first one's answer says it was free, and keeps the first charge under its own name.
    const what = `@${who} is private: no public data.`;
    expect(out[0].json).toMatchObject({ message: `${what} (Charged 1 credit.)`, credits_charged: 1 });
    expect(out[0].json).not.toHaveProperty('credits_charged_first');
    expect(out[1].json).toMatchObject({
      message: `${what} (Charged 1 credit when first looked up; free now.)`,
      credits_charged: 0,
      credits_charged_first: 1,
    });
  });

  test('duplicates with Include Meta: the answer served again has credits_charged 0 and credits_charged_first; with Continue On Fail a repeated billed error item too', async () => {
    const [pub] = publicAccounts(1);
    const meta = { ...lookups, options: { includeMeta: true } };
    const { out } = await execute({
      inputs: [pub, `@${pub}`],
      parameters: meta,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out[0].json.meta).toMatchObject({ credits_charged: 1 });
    expect(out[0].json.meta).not.toHaveProperty('credits_charged_first');
    expect(out[1].json.meta).toMatchObject({ credits_charged: 0, credits_charged_first: 1, deduplicated: true });
    const who = privateAccount();
    const asError = { ...lookups, options: { onNotFound: 'error' } };
    const failed = await execute({ inputs: [who, who], parameters: asError, key: sb.demoKey, continueOnFail: true });
    expect(failed.out.map((o) => [o.json.credits_charged, o.json.credits_charged_first])).toEqual([
      [1, undefined],
      [0, 1],
    ]);
    expect(failed.out[1].json.error).toMatch(/\(Charged 1 credit when first looked up; free now\.\)$/);
    expect(sb.stats().creditsBilled).toBe(2);
  });

  test('an item that fails after its retries (502, not charged) comes out as its own item that says so, paired; the paid answers come out', async () => {
    const handles = publicAccounts(4);
    const perItem = (i: number) =>
      i === 2 ? { options: { extraParameters: { parameter: [{ name: 'sandbox_fault', value: '502' }] } } } : {};
    const { out, hints } = await execute({
      inputs: handles,
      parameters: lookups,
      perItem,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
    expect(out.map((o) => o.json.username)).toEqual([handles[0], handles[1], undefined, handles[3]]);
    const said = 'The data provider failed after 3 tries. Try again later. (Not charged.)';
    expect(out[2].json).toEqual({
      delivered: false,
      handle: handles[2],
      error: said,
      code: 'upstream_error',
      http_status: 502,
      credits_charged: 0,
      request_id: expect.any(String),
    });
    expect(out.some((o) => o.json._notice)).toBe(false);
    expect(hints.map((h) => h.message)).toEqual([`Item 2 not delivered: ${said}`]);
    expect(sb.stats().creditsBilled).toBe(3);
  });

  test('an answer not in the documented shape comes out with _notice, not as a thrown error', async () => {
    const [a, b] = publicAccounts(2);
    const tamper = (url: string, body: string) =>
      url.includes(b) ? body.replace(/"followers":\d+/, '"followers":"many"') : body;
    const { out } = await execute({
      inputs: [a, b],
      parameters: lookups,
      tamper,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out).toHaveLength(2);
    expect(out[1].json).toMatchObject({ username: b, followers: 'many' });
    expect(out[1].json._notice).toMatch(
      /^The service answered in an unexpected shape \(data\.followers: .*\)\. Please report it with request id .*\. \(Charged 1 credit\.\)$/,
    );
  });
});
