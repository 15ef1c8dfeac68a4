/**
 * The scorecard sheet of "Vet these accounts" (pure): a settings block of thresholds on top, then
 * one row per account with the fields that decide, a verdict that is a formula over those cells and
 * the thresholds (a threshold changed by hand changes the verdicts with no request), a link to the
 * profile and a note. The checks' runs write their fields straight into the columns named here.
 */
import type { FirstCharge, ZoneOffset } from '@igdata/core';
import { chargedNote, chargesNote } from '@igdata/core';
import { colName } from '../bulk/grid';
import { OUTCOME_WIDTH } from '../bulk/outcome';
import type { SheetValue } from '../engine/values';

/**
 * The scorecard's columns, left to right: a check's fields are adjacent (one run writes them in one
 * block); the note beside the verdict, where Sheets shows it whole over the row's empty field cells.
 */
export const COLUMNS = [
  'account',
  'verdict',
  'note',
  'followers',
  'engagement_rate_pct',
  'estimated_real_pct',
  'quality_grade',
  'niche',
  'fit_score',
  'profile',
] as const;
/** A column's number (1-based) by its name. */
export const colOf = (name: string): number => COLUMNS.indexOf(name as (typeof COLUMNS)[number]) + 1;

/** The thresholds, each a row of the settings block (B holds the value; blank = not held against anyone). */
const THRESHOLDS = [
  { label: 'Min followers', value: 100, field: 'followers', test: 'min' },
  { label: 'Min engagement %', value: 1, field: 'engagement_rate_pct', test: 'min' },
  { label: 'Min real %', value: 80, field: 'estimated_real_pct', test: 'min' },
  { label: 'Grades accepted', value: 'A B', field: 'quality_grade', test: 'grade' },
  { label: 'Min fit score', value: 60, field: 'fit_score', test: 'min' },
] as const;

/** The settings block: a title row, then a threshold a row from row 2. */
const HEADER_ROW = THRESHOLDS.length + 3;
export const FIRST_ROW = HEADER_ROW + 1;

/** The verdicts' conditional colours (Sheets' light green, red, grey). */
export const COLORS = [
  { text: 'pass', color: '#b7e1cd' },
  { text: 'fail', color: '#f4c7c3' },
  { text: 'no data', color: '#d9d9d9' },
];

/** The top of the sheet: the settings block and the header. */
export function scorecardTop(): SheetValue[][] {
  const width = COLUMNS.length;
  const pad = (cells: SheetValue[]) => [...cells, ...new Array(width - cells.length).fill('')];
  return [
    pad(['Thresholds (blank = off): change one and the verdicts follow.']),
    ...THRESHOLDS.map((t) => pad([t.label, t.value])),
    pad([]),
    [...COLUMNS],
  ];
}

/**
 * The verdict formula of sheet row `r` over the fields the checks ran (`fields`): "no data" when
 * the row has a note (a private, missing or bad account), else "pass" when every threshold that
 * applies holds, "fail" when one does not, "review" when no ran field has a threshold.
 */
export function verdictFormula(r: number, fields: string[]): string {
  const conds = THRESHOLDS.flatMap((t, i) => {
    if (!fields.includes(t.field)) return [];
    const cell = `${colName(colOf(t.field))}${r}`;
    const limit = `$B$${i + 2}`;
    const holds =
      t.test === 'grade'
        ? `AND(${cell}<>"",ISNUMBER(SEARCH(${cell},${limit})))`
        : `AND(ISNUMBER(${cell}),${cell}>=${limit})`;
    return [`OR(${limit}="",${holds})`];
  });
  const decided = conds.length ? `IF(AND(${conds.join(',')}),"pass","fail")` : '"review"';
  return `=IF($A${r}="","",IF($${colName(colOf('note'))}${r}<>"","no data",${decided}))`;
}

/** The profile link of row `r` (the account cell is a handle the service accepted). */
export const linkFormula = (r: number): string => `=HYPERLINK("https://www.instagram.com/"&$A${r}&"/","profile")`;

/** A check that failed on a row: the message its run wrote for it and its outcome as data (bulk/outcome.ts). */
export interface FailedCheck {
  message: unknown;
  charged: number;
  lost: number;
  /** Served again: what it cost when first looked up, and when. */
  first?: FirstCharge;
}

/**
 * A row's note once every check has run, from the checks that failed on it (a private or missing
 * account, a bad target): their sentences said once with what they cost in all, or, when one may
 * have been charged for a lost answer (nobody can say what), each message as it is. Null when none
 * failed. What a check cost is its outcome's number: the message is only shown.
 */
export function noteOf(failed: FailedCheck[], zoneOffset?: ZoneOffset): string | null {
  if (!failed.length) return null;
  const messages = failed.map((f) => String(f.message));
  if (failed.some((f) => f.lost > 0)) return [...new Set(messages)].join(' ');
  // Each message ends with core's note of what its check cost (userMessage): said once, summed, below
  // (by core too: what was charged now, and what answers served again cost when first looked up).
  const sentences = messages.map((m, i) => {
    const tail = ` ${chargedNote(failed[i], zoneOffset)}`;
    return m.endsWith(tail) ? m.slice(0, -tail.length) : m;
  });
  return `${[...new Set(sentences)].join(' ')} ${chargesNote(failed, 'check', zoneOffset)}`;
}

export const NOTE_COL = colOf('note');
export const VERDICT_COL = colOf('verdict');
export const LINK_COL = colOf('profile');
/** The field columns the checks write (followers .. fit score). */
export const FIELDS_FROM = colOf('followers');
export const FIELDS_TO = colOf('fit_score');
/**
 * The vet's working columns, right of the scorecard: the outcome of each check's rows as data, by
 * which the notes are written (emptied then).
 */
export const outcomeColOf = (check: number, width = OUTCOME_WIDTH): number => LINK_COL + 1 + check * width;
