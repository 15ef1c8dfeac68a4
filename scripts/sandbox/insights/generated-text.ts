/**
 * The "AI" insights (qualify, summary, niche, similar, caption, DM opener, image and comment
 * analysis): deterministic text built from the account's data, every sentence starting with
 * "[sandbox]", so tests and examples can assert on it.
 */
import type { Account, Post, World } from '../world/records';
import type { CommentRec } from '../world/derived';
import { Rng } from '../world/random';
import { sentimentOf } from '../world/derived';
import { SANDBOX, r1, topTags } from './shared';
import { engagement } from './measured';

function keywordsOf(a: Account, posts: Post[]): Set<string> {
  const text = [
    a.username,
    a.full_name,
    a.biography,
    a.category ?? '',
    a.topic.label,
    a.topic.words.join(' '),
    a.country,
    ...topTags(posts, 8),
    ...posts.map((p) => p.caption),
  ]
    .join(' ')
    .toLowerCase();
  return new Set(text.split(/[^a-z0-9]+/).filter((w) => w.length >= 3));
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'who',
  'that',
  'are',
  'from',
  'into',
  'about',
  'our',
  'their',
  'have',
  'has',
  'any',
  'all',
  'over',
]);

export function qualify(a: Account, posts: Post[], criteria: string) {
  const words = keywordsOf(a, posts);
  const tokens = [
    ...new Set(
      criteria
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length >= 3 && !STOP.has(w)),
    ),
  ];
  const stem = (w: string) => w.slice(0, 5);
  const stems = new Set([...words].map(stem));
  const matched = tokens.filter((t) => words.has(t) || stems.has(stem(t)));
  const missing = tokens.filter((t) => !matched.includes(t));
  const e = engagement(a, posts);
  const active = posts.length > 0 && Date.parse(posts[0].taken_at) > 0;
  const score = Math.max(
    0,
    Math.min(
      100,
      Math.round(
        (tokens.length ? (matched.length / tokens.length) * 70 : 35) +
          (e.engagement_rate_pct >= 1 ? 15 : 0) +
          (active && posts.length >= 3 ? 15 : 0),
      ),
    ),
  );
  const verdict = score >= 70 ? 'strong fit' : score >= 40 ? 'possible fit' : 'weak fit';
  const positive = [
    ...matched.map((m) => `matches "${m}"`),
    ...(e.engagement_rate_pct >= 1 ? [`engagement rate ${e.engagement_rate_pct}%`] : []),
    ...(posts.length >= 3 ? [`${posts.length} recent posts analysed`] : []),
  ];
  const negative = [
    ...missing.map((m) => `no sign of "${m}"`),
    ...(e.engagement_rate_pct < 1 ? [`low engagement rate ${e.engagement_rate_pct}%`] : []),
    ...(posts.length < 3 ? ['few recent posts'] : []),
  ];
  return {
    username: a.username,
    criteria,
    fit_score: score,
    verdict,
    reasons: [
      `${SANDBOX} ${matched.length} of ${tokens.length} criteria keywords appear in @${a.username}'s profile and recent captions.`,
      `${SANDBOX} Niche: ${a.topic.label}; ${a.followers.toLocaleString('en-US')} followers; engagement ${e.engagement_rate_pct}%.`,
    ],
    signals: { positive, negative },
    recommended_action:
      score >= 70
        ? `${SANDBOX} Reach out now with a personalised message.`
        : score >= 40
          ? `${SANDBOX} Review manually before reaching out.`
          : `${SANDBOX} Skip this account.`,
  };
}

export function summary(a: Account, posts: Post[]) {
  const tags = topTags(posts, 5);
  const recent = posts.slice(0, 3).map((p) => p.caption.split(' #')[0]);
  return {
    username: a.username,
    one_liner: `${SANDBOX} @${a.username} is a ${a.topic.label.toLowerCase()} account${a.category ? ` (${a.category})` : ''} from ${a.country}.`,
    who_they_are: `${SANDBOX} ${a.full_name || a.username} posts about ${a.topic.label.toLowerCase()} to ${a.followers.toLocaleString('en-US')} followers${a.is_verified ? ' and is verified' : ''}.`,
    niche: a.topic.label,
    audience: a.topic.audience,
    tone: a.topic.tone,
    recent_focus: recent.length ? `${SANDBOX} Recently: ${recent.join(' / ')}` : `${SANDBOX} No recent posts.`,
    tags: tags.length ? tags : [a.topic.key],
  };
}

export function niche(a: Account, posts: Post[]) {
  const tags = topTags(posts, 6);
  const sub = tags.find((t) => !a.topic.tags.slice(0, 1).includes(t)) ?? a.topic.words[0];
  return {
    username: a.username,
    niche: a.topic.label,
    sub_niche: sub,
    brand_voice: a.topic.tone,
    target_audience: a.topic.audience,
    categories: [...new Set([a.category ?? a.topic.categories[0], a.topic.label])],
    content_pillars: (tags.length ? tags.slice(0, 3) : a.topic.words.slice(0, 3)).map((t) => `${SANDBOX} ${t}`),
  };
}

export function similar(world: World, a: Account) {
  const query = a.category ?? a.topic.label;
  const candidates = world.accounts.filter((x) => x !== a && !x.is_private && x.topic === a.topic && x.full_name);
  const lf = Math.log10(a.followers + 10);
  const scored = candidates.map((x) => {
    const sameCat = x.category !== null && x.category === a.category;
    const sim = Math.max(
      1,
      Math.min(
        99,
        Math.round(
          90 -
            Math.abs(Math.log10(x.followers + 10) - lf) * 12 +
            (sameCat ? 8 : 0) +
            (x.is_business === a.is_business ? 2 : 0),
        ),
      ),
    );
    return { x, sim };
  });
  scored.sort((p, q) => q.sim - p.sim || (p.x.username < q.x.username ? -1 : 1));
  return {
    seed: { username: a.username, category: a.category },
    search_query: query,
    similar: scored.slice(0, 10).map(({ x, sim }) => ({
      username: x.username,
      full_name: x.full_name,
      similarity: sim,
      why: `${SANDBOX} Same niche (${a.topic.label})${x.category && x.category === a.category ? `, same category (${x.category})` : ''}, ${x.followers.toLocaleString('en-US')} followers.`,
    })),
  };
}

export function caption(a: Account, posts: Post[], topic: string) {
  const tags = topTags(posts, 4);
  const subject = topic || posts[0]?.caption.split(' #')[0].replace(/[.!?]$/, '') || a.topic.label;
  const rng = Rng.of('caption', a.id, subject);
  const openers = ['New today:', 'You asked, we made it:', 'Just for you:', 'Here it is:'];
  const captions = [0, 1, 2].map((k) =>
    `${SANDBOX} ${openers[(k + rng.int(0, 3)) % openers.length]} ${subject}. ${tags
      .slice(0, 3 - (k % 2))
      .map((t) => `#${t}`)
      .join(' ')}`.trim(),
  );
  return { username: a.username, topic: topic || null, tone: a.topic.tone, captions, hashtags: tags };
}

export function dmOpener(a: Account, posts: Post[], context: string) {
  const name = (a.full_name || a.username).split(' ')[0];
  const recent = posts[0]?.caption.split(' #')[0];
  return {
    username: a.username,
    context: context || null,
    opener: `${SANDBOX} Hi ${name}! ${recent ? `Loved your recent post "${recent}". ` : ''}${context ? `${context[0].toUpperCase()}${context.slice(1)}, and I think it fits your ${a.topic.label.toLowerCase()} audience.` : `Your ${a.topic.label.toLowerCase()} content stands out.`} Open to a quick chat?`,
    personalization: [
      `niche: ${a.topic.label}`,
      ...(recent ? [`recent post: ${recent}`] : []),
      `followers: ${a.followers}`,
    ],
  };
}

export function postImage(p: Post) {
  const topic = p.author.topic;
  const rng = Rng.of('image', p.id);
  const palette = [
    'black',
    'white',
    'navy',
    'orange',
    'green',
    'beige',
    'red',
    'teal',
    'gold',
    'grey',
    'purple',
    'pink',
  ];
  const subjects = [rng.pick(topic.subjects), rng.pick(topic.subjects)].filter((x, i, xs) => xs.indexOf(x) === i);
  const scene = rng.pick(topic.scenes);
  const safe = !/fake|overrated/i.test(p.caption);
  return {
    post: p.url,
    caption: p.caption,
    analysis: {
      subjects,
      scene,
      objects: [...new Set([rng.pick(topic.subjects), rng.pick(topic.words), rng.pick(topic.subjects)])],
      dominant_colors: [rng.pick(palette), rng.pick(palette), rng.pick(palette)].filter(
        (x, i, xs) => xs.indexOf(x) === i,
      ),
      text_in_image: '',
      mood: rng.pick(['calm', 'joyful', 'dramatic', 'cosy', 'energetic', 'inspiring']),
      aesthetic_score: r1(5 + rng.next() * 4.5),
      brand_safe: safe,
      brand_safety_notes: `${SANDBOX} No unsafe content detected.`,
      suggested_alt_text: `${SANDBOX} ${subjects.join(' and ')} in a ${scene} setting.`,
      images_analyzed: p.type === 'carousel' ? Math.min(3, p.childCount) : 1,
    },
  };
}

export function commentInsights(p: Post, comments: CommentRec[]) {
  const sample = comments.slice(0, 100);
  const counts = { positive: 0, neutral: 0, negative: 0 };
  const texts = new Map<string, number>();
  for (const c of sample) {
    counts[sentimentOf(c.text)]++;
    texts.set(c.text, (texts.get(c.text) ?? 0) + 1);
  }
  const n = sample.length;
  const pct = (k: keyof typeof counts) => (n ? r1((counts[k] / n) * 100) : 0);
  const overall = !n
    ? 'none'
    : counts.positive >= counts.negative * 2 && counts.positive >= counts.neutral
      ? 'positive'
      : counts.negative > counts.positive
        ? 'negative'
        : 'mixed';
  const themes = [...texts.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 5)
    .map(([t, c]) => ({ theme: t, mentions: c }));
  return {
    post: p.url,
    comments_analyzed: n,
    sentiment: { positive_pct: pct('positive'), neutral_pct: pct('neutral'), negative_pct: pct('negative'), overall },
    themes,
    summary: n
      ? `${SANDBOX} ${n} comments analysed; ${pct('positive')}% positive, ${pct('negative')}% negative. Most common: "${themes[0].theme}".`
      : `${SANDBOX} No comments to analyse.`,
  };
}
