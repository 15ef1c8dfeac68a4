/**
 * Insights computed from the sandbox's own data. The formulas are written down in FORMULAS.md;
 * "AI" results (summary, niche, qualify, similar, caption, dm-opener, image and comment analysis)
 * are deterministic text built from the account's data, and every sentence starts with "[sandbox]".
 */
import type { Account, HashtagRec, Post, UserSummary, World } from './world/records';
import type { CommentRec } from './world/derived';
import { HOUR } from './world/vocabulary';
import { DEFAULT_AVATAR } from './world/media';
import { Rng } from './world/random';
import { sentimentOf } from './world/derived';

const SANDBOX = '[sandbox]';
const r2 = (n: number) => Math.round(n * 100) / 100;
const r1 = (n: number) => Math.round(n * 10) / 10;
const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const eng = (p: Post) => p.like_count + p.comment_count;
const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function engagement(a: Account, posts: Post[]) {
  const avgLikes = avg(posts.map((p) => p.like_count));
  const avgComments = avg(posts.map((p) => p.comment_count));
  const avgEng = avgLikes + avgComments;
  const rate = a.followers > 0 ? avgEng / a.followers : 0;
  return {
    username: a.username,
    followers: a.followers,
    posts_analyzed: posts.length,
    avg_likes: r2(avgLikes),
    avg_comments: r2(avgComments),
    avg_engagement: r2(avgEng),
    engagement_rate: r6(rate),
    engagement_rate_pct: r2(rate * 100),
  };
}

interface Slot {
  posts: number;
  total: number;
}
const pad2 = (n: number) => String(n).padStart(2, '0');

export function bestTime(a: Account, posts: Post[], tz: number) {
  const hours = new Map<number, Slot>();
  const days = new Map<number, Slot>();
  for (const p of posts) {
    const d = new Date(p.t + tz * HOUR);
    const h = d.getUTCHours();
    const wd = (d.getUTCDay() + 6) % 7; // Monday = 0
    for (const [m, k] of [
      [hours, h],
      [days, wd],
    ] as [Map<number, Slot>, number][]) {
      const s = m.get(k) ?? { posts: 0, total: 0 };
      s.posts++;
      s.total += eng(p);
      m.set(k, s);
    }
  }
  const rank = <T extends { posts: number; avg_engagement: number }>(xs: T[], key: (x: T) => number) =>
    [...xs].sort((x, y) => y.avg_engagement - x.avg_engagement || y.posts - x.posts || key(x) - key(y)).slice(0, 3);
  const by_hour = [...hours.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([hour, s]) => ({ hour, posts: s.posts, avg_engagement: r2(s.total / s.posts) }));
  const by_day = [...days.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([d, s]) => ({ day: DAYS[d], posts: s.posts, avg_engagement: r2(s.total / s.posts), _d: d }));
  const best_hours = rank(by_hour, (x) => x.hour);
  const best_days = rank(by_day, (x) => x._d);
  const tzLabel = `UTC${tz >= 0 ? '+' : '-'}${Math.abs(tz)}`;
  const recommendation = posts.length
    ? `Post on ${best_days[0].day} around ${pad2(best_hours[0].hour)}:00 (${tzLabel}); recent posts at that hour averaged ${Math.round(best_hours[0].avg_engagement)} likes and comments.`
    : 'No recent posts to analyse.';
  const strip = (xs: typeof by_day) => xs.map(({ _d, ...rest }) => rest);
  return {
    username: a.username,
    posts_analyzed: posts.length,
    timezone_offset: tz,
    best_hours,
    best_days: strip(best_days),
    recommendation,
    by_hour,
    by_day: strip(by_day),
  };
}

export function stats(a: Account, posts: Post[]) {
  const n = posts.length;
  const spanDays = n > 1 ? (posts[0].t - posts[n - 1].t) / (24 * HOUR) : 0;
  const avgGap = n > 1 ? spanDays / (n - 1) : 0;
  const types = ['photo', 'video', 'carousel'] as const;
  const format_mix = types
    .map((type) => {
      const ps = posts.filter((p) => p.type === type);
      return {
        type,
        posts: ps.length,
        share_pct: n ? r1((ps.length / n) * 100) : 0,
        avg_engagement: r2(avg(ps.map(eng))),
      };
    })
    .filter((f) => f.posts > 0);
  const best = [...format_mix].sort((x, y) => y.avg_engagement - x.avg_engagement || y.posts - x.posts)[0];
  return {
    username: a.username,
    followers: a.followers,
    posts_analyzed: n,
    avg_days_between_posts: r2(avgGap),
    posts_per_week: avgGap > 0 ? r2(7 / avgGap) : 0,
    format_mix,
    best_format: best ? best.type : null,
  };
}

const SIGNALS = ['no profile picture', 'no display name', 'digit-heavy username', 'private and nameless'] as const;

function signalsOf(u: UserSummary): string[] {
  const out: string[] = [];
  if (!u.profile_pic_url || u.profile_pic_url === DEFAULT_AVATAR) out.push(SIGNALS[0]);
  if (!u.full_name || !u.full_name.trim()) out.push(SIGNALS[1]);
  const digits = (u.username.match(/[0-9]/g) ?? []).length;
  if (digits >= 4 || digits / u.username.length >= 0.4) out.push(SIGNALS[2]);
  if (u.is_private && !u.full_name) out.push(SIGNALS[3]);
  return out;
}

function grade(realPct: number): string {
  return realPct >= 90 ? 'A' : realPct >= 80 ? 'B' : realPct >= 70 ? 'C' : realPct >= 60 ? 'D' : 'F';
}

export function audit(a: Account, visibleFollowers: UserSummary[], sample: number) {
  const sampled = visibleFollowers.slice(0, sample);
  const breakdown: Record<string, number> = Object.fromEntries(SIGNALS.map((s) => [s, 0]));
  let fake = 0;
  for (const u of sampled) {
    const sig = signalsOf(u);
    for (const s of sig) breakdown[s]++;
    if (sig.length >= 2) fake++;
  }
  const fakePct = sampled.length ? r1((fake / sampled.length) * 100) : 0;
  const realPct = r1(100 - fakePct);
  const g = grade(realPct);
  return {
    username: a.username,
    followers_total: a.followers,
    sampled: sampled.length,
    suspected_fake_pct: fakePct,
    estimated_real_pct: realPct,
    estimated_real_followers: Math.round((a.followers * realPct) / 100),
    quality_grade: g,
    signal_breakdown: breakdown,
    summary: sampled.length
      ? `${SANDBOX} Of ${sampled.length} sampled followers of @${a.username}, ${fake} show two or more fake-account signals (${fakePct}%); the audience grades ${g}.`
      : `${SANDBOX} @${a.username} has no visible followers to sample.`,
  };
}

/** Most frequent hashtags of a set of posts (ties alphabetical). */
function topTags(posts: Post[], n = 5): string[] {
  const counts = new Map<string, number>();
  for (const p of posts) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}

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

export function hashtagInsights(h: HashtagRec, recent: Post[]) {
  const top9 = h.top.slice(0, 9);
  const avgTop = avg(top9.map(eng));
  const window = recent.slice(0, 50);
  const hours = window.length > 1 ? (window[0].t - window[window.length - 1].t) / HOUR : 0;
  const velocity = hours > 0 ? r2((window.length - 1) / hours) : 0;
  const difficulty = Math.max(0, Math.min(100, Math.round(20 * Math.log10(avgTop + 1))));
  const related = new Map<string, number>();
  for (const p of recent.slice(0, 200))
    for (const t of p.tags) if (t !== h.name) related.set(t, (related.get(t) ?? 0) + 1);
  return {
    tag: h.name,
    media_count: h.media_count,
    difficulty_score: difficulty,
    difficulty: difficulty >= 70 ? 'hard' : difficulty >= 40 ? 'medium' : 'easy',
    avg_top_engagement: r2(avgTop),
    avg_top_likes: r2(avg(top9.map((p) => p.like_count))),
    avg_top_comments: r2(avg(top9.map((p) => p.comment_count))),
    posts_per_hour: velocity,
    related_hashtags: [...related.entries()]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, 5)
      .map(([t]) => t),
    summary: `${SANDBOX} A top post under #${h.name} needs about ${Math.round(avgTop)} likes and comments; about ${velocity} new posts per hour.`,
  };
}
