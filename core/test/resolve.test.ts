// Input resolution: the forms users type, and property-based checks that nothing but our own
// validation error ever escapes, whatever the input.
import fc from 'fast-check';
import { IgValidationError, endpoints, normalizeParams } from '../src';
import { resolveHandle, resolveLocation, resolvePost, resolveTag } from '../src/resolve';

describe('accounts', () => {
  it.each([
    'nasa',
    '@nasa',
    '  NASA ',
    '@nasa/',
    'HTTPS://WWW.INSTAGRAM.COM/NASA',
    'https://instagr.am/nasa',
    'https://www.instagram.com/nasa/',
    'https://instagram.com/nasa',
    'http://m.instagram.com/nasa/?hl=en',
    'instagram.com/nasa/reels/',
    'www.instagram.com/nasa/tagged/',
    'https://www.instagram.com/nasa?igsh=abc123#top',
    'https://www.instagram.com/stories/nasa/3141592653/',
  ])('%s is @nasa', (input) => expect(resolveHandle(input)).toBe('nasa'));

  it('keeps numeric ids, also when Sheets passes a number', () => {
    expect(resolveHandle('528817151')).toBe('528817151');
    expect(resolveHandle(528817151)).toBe('528817151');
  });

  it.each([
    '',
    '   ',
    'two words',
    'https://www.instagram.com/p/C0ffee12345/',
    'https://example.com/nasa',
    'a'.repeat(31),
    '.dot',
    'ünïcode',
  ])('rejects %j naming the argument', (input) =>
    expect(() => resolveHandle(input)).toThrow(
      /^handle must be a username, @username, numeric id or profile URL; got /,
    ),
  );
});

describe('posts, tags, locations', () => {
  it.each([
    ['https://www.instagram.com/p/C0ffee12345/', 'C0ffee12345'],
    ['https://www.instagram.com/reel/C0ffee12345/?igsh=x', 'C0ffee12345'],
    ['instagram.com/tv/C0ffee12345', 'C0ffee12345'],
    ['https://www.instagram.com/nasa/p/C0ffee12345/', 'C0ffee12345'],
    ['C0ffee12345', 'C0ffee12345'],
    ['3141592653589793238', '3141592653589793238'],
  ])('post %s', (input, out) => expect(resolvePost(input)).toBe(out));

  it('tags with or without #, or a tag URL', () => {
    expect(resolveTag('#VeganRecipes')).toBe('veganrecipes');
    expect(resolveTag('https://www.instagram.com/explore/tags/veganrecipes/')).toBe('veganrecipes');
    expect(resolveTag('café')).toBe('café');
    expect(() => resolveTag('two words')).toThrow(/^tag must be a hashtag/);
  });

  it('locations by id or URL', () => {
    expect(resolveLocation('https://www.instagram.com/explore/locations/213385402/new-york-new-york/')).toBe(
      '213385402',
    );
    expect(resolveLocation(213385402)).toBe('213385402');
    expect(() => resolveLocation('new york')).toThrow(/^id must be a location id or location URL/);
  });

  it('integers in range, with the message users read', () => {
    const e = endpoints.find((x) => x.id === 'insights/profile/engagement')!;
    expect(normalizeParams(e, { handle: 'nasa', posts: '20' })).toEqual({ handle: 'nasa', posts: 20 });
    expect(normalizeParams(e, { handle: 'nasa' })).toEqual({ handle: 'nasa', posts: 12 });
    expect(() => normalizeParams(e, { handle: 'nasa', posts: 2.5 })).toThrow(
      'posts must be a whole number from 1 to 50; got 2.5.',
    );
    expect(() => normalizeParams(e, { handle: '' })).toThrow(/^handle must be .*; got an empty value\.$/);
  });

  it('passes extra query parameters through', () => {
    const e = endpoints.find((x) => x.id === 'location')!;
    expect(normalizeParams(e, { id: '1', lang: 'en' })).toEqual({ id: '1', lang: 'en' });
  });
});

describe('property: any input either resolves or fails with our validation error', () => {
  const anything = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.webUrl(),
    fc.constantFrom(
      'https://www.instagram.com/',
      'instagram.com/p/',
      '@',
      '#',
      '//',
      'https://instagram.com/explore/locations/',
    ),
    fc
      .tuple(fc.constantFrom('https://www.instagram.com/', 'instagram.com/', '@', '#'), fc.string())
      .map(([a, b]) => a + b),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.date(),
    fc.array(fc.string()),
    fc.object(),
  );
  const resolvers = [resolveHandle, resolvePost, resolveTag, resolveLocation];

  it('for every resolver', () => {
    fc.assert(
      fc.property(anything, fc.constantFrom(...resolvers), (input, resolve) => {
        try {
          const out = resolve(input);
          expect(typeof out).toBe('string');
          expect(out.length).toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(IgValidationError);
          expect((e as Error).message).toMatch(/ must be .*; got .*\.$/);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('for every parameter of every endpoint', () => {
    fc.assert(
      fc.property(fc.constantFrom(...endpoints), anything, (endpoint, input) => {
        for (const p of endpoint.params) {
          try {
            normalizeParams(endpoint, { [p.name]: input });
          } catch (e) {
            expect(e).toBeInstanceOf(IgValidationError);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a resolved handle is a fixed point (resolving twice changes nothing)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._]{1,30}$/), (name) => {
        fc.pre(
          !name.startsWith('.') &&
            ![
              'p',
              'reel',
              'reels',
              'tv',
              'explore',
              'stories',
              'accounts',
              'direct',
              'about',
              'legal',
              'developer',
              'web',
              '_u',
            ].includes(name),
        );
        const once = resolveHandle(`https://www.instagram.com/${name}/?hl=en`);
        expect(resolveHandle(once)).toBe(once);
        expect(resolveHandle(`@${name.toUpperCase()}`)).toBe(once);
      }),
    );
  });
});

describe('suggestions', () => {
  const { closest } = jest.requireActual('../src') as typeof import('../src');
  it('finds the intended name for a typo, and nothing for a wild guess', () => {
    expect(closest('folowers', ['followers', 'following', 'posts'])).toBe('followers');
    expect(closest('engagment_rate_pct', ['engagement_rate', 'engagement_rate_pct'])).toBe('engagement_rate_pct');
    expect(closest('zzz', ['followers', 'posts'])).toBeUndefined();
  });
});
