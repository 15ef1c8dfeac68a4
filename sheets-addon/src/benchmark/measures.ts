/**
 * What "Benchmark these accounts" compares, a row of its report each: the field of an insight's answer it shows
 * (or its change since the previous run: growth), which value leads (none for text), and how Sheets formats it.
 * The insights, their prices and fields are the registry's; this says only which rows a benchmark offers.
 */
const ENGAGEMENT = 'insights/profile/engagement';
const STATS = 'insights/profile/stats';
const BEST_TIME = 'insights/profile/best-time';

export interface Measure {
  id: string;
  /** The report's row label (what the sidebar offers). */
  label: string;
  endpoint: string;
  field: string;
  /** The leader: the account with the largest value, or the smallest (days between posts); none for text. */
  leader?: 'max' | 'min';
  /** Sheets' number format of its row. */
  format?: string;
  /** The change in % of `field` since the benchmark's previous run, not its value (blank before a second run). */
  change?: boolean;
  /** Offered ticked. */
  ticked?: boolean;
  /** 0 means the API could not measure it (days between posts with fewer than 2 posts): shown blank, never a leader. */
  zeroIsNone?: boolean;
  /** What the cell shows, from the cells of `fields` (instead of `field`'s value). */
  shown?: { fields: string[]; of: (cells: unknown[]) => string };
}

/** The first of a list as its history cell holds it ("Tuesday, Friday": flattened by its label). */
const firstOf = (cell: unknown): string => String(cell ?? '').split(', ')[0];

export const MEASURES: Measure[] = [
  {
    id: 'followers',
    label: 'Followers',
    endpoint: ENGAGEMENT,
    field: 'followers',
    leader: 'max',
    format: '#,##0',
    ticked: true,
  },
  {
    id: 'growth',
    label: 'Follower growth since the previous run',
    endpoint: ENGAGEMENT,
    field: 'followers',
    leader: 'max',
    format: '0.0%',
    change: true,
    ticked: true,
  },
  {
    id: 'engagement',
    label: 'Engagement rate %',
    endpoint: ENGAGEMENT,
    field: 'engagement_rate_pct',
    leader: 'max',
    format: '0.00',
    ticked: true,
  },
  { id: 'likes', label: 'Average likes', endpoint: ENGAGEMENT, field: 'avg_likes', leader: 'max', format: '#,##0' },
  {
    id: 'comments',
    label: 'Average comments',
    endpoint: ENGAGEMENT,
    field: 'avg_comments',
    leader: 'max',
    format: '#,##0',
  },
  {
    id: 'cadence',
    label: 'Posts per week',
    endpoint: STATS,
    field: 'posts_per_week',
    leader: 'max',
    format: '0.0',
    ticked: true,
  },
  {
    id: 'gap',
    label: 'Days between posts',
    endpoint: STATS,
    field: 'avg_days_between_posts',
    leader: 'min',
    format: '0.0',
    zeroIsNone: true,
  },
  { id: 'best_format', label: 'Best format', endpoint: STATS, field: 'best_format', ticked: true },
  { id: 'formats', label: 'Formats posted', endpoint: STATS, field: 'format_mix', ticked: true },
  {
    id: 'best_time',
    label: 'Best time to post',
    endpoint: BEST_TIME,
    field: 'best_days',
    ticked: true,
    // The best day and the best hour ("Tuesday 20:00"), in the zone asked (the spreadsheet's): the API's own
    // sentence (recommendation) is too long for a column.
    shown: {
      fields: ['best_days', 'best_hours'],
      of: ([days, hours]) =>
        days === '' || hours === '' ? '' : `${firstOf(days)} ${firstOf(hours).padStart(2, '0')}:00`,
    },
  },
];

export const DEFAULT_MEASURES = MEASURES.filter((m) => m.ticked).map((m) => m.id);

/** The measures charted under the report, by id: engagement and growth. */
export const CHARTED = ['engagement', 'growth'];

/** The best-time insight's hours are in the spreadsheet's zone: its offset then, in whole hours the API takes. */
export const BEST_TIME_ENDPOINT = BEST_TIME;
