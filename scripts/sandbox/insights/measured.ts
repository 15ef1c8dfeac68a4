/**
 * The measured insights: engagement, best time to post, posting stats, the follower audit and a
 * hashtag's difficulty, computed from the sandbox's own data by the formulas FORMULAS.md writes down.
 */
import type { Account, HashtagRec, Post, UserSummary } from '../world/records';
import { HOUR } from '../world/vocabulary';
import { DEFAULT_AVATAR } from '../world/media';
import { SANDBOX, avg, eng, r1, r2, r6 } from './shared';

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
