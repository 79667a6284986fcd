import type { ColumnInterval } from './store/resources.js';

/**
 * FHIR R4 date search values (§3.1.1.5.6 "date", prefixes §3.1.1.4, formats §2.1.0): one parser for every
 * date parameter (`_lastUpdated`, `service-date`, `service-start-date`, `billable-period-start`). A value
 * is an implicit range at its own precision — `2024` is the whole year, `2024-06` the month,
 * `2024-06-01T10:00:00Z` one second — and the prefix says how a resource's value must relate to that
 * range. Pure: no I/O.
 */

/** The prefixes served. `ap` (approximately) is left out: its tolerance is the server's to choose. */
export const DATE_PREFIXES = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'sa', 'eb'] as const;
export type DatePrefix = (typeof DATE_PREFIXES)[number];

/** A half-open range of epoch milliseconds, `[start, end)`. */
export interface MsRange {
  start: number;
  end: number;
}

export interface DateSearch {
  prefix: DatePrefix;
  /** The instants the value covers, its zone applied; a value without a zone is taken as UTC. */
  instant: MsRange;
  /** The same range read off the wall clock as written, its zone ignored (for date-only columns). */
  wallClock: MsRange;
}

export type DateSearchResult = { ok: true; value: DateSearch } | { ok: false; problem: 'operator' | 'value' };

const DAY = 86_400_000;

// FHIR R4 §2.1.0 dateTime: year, year-month, date, or date with time; seconds and a fraction optional in
// search values (minute precision is common in clients); the zone as `Z` or ±hh:mm.
const FORMAT =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** Epoch ms of a UTC wall-clock time; years below 100 are taken literally (Date.UTC maps them to 19xx). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

function daysIn(year: number, month: number): number {
  return new Date(utc(year, month + 1, 1) - DAY).getUTCDate();
}

/** `±hh:mm` in milliseconds east of UTC; undefined for an impossible offset (FHIR allows −12…+14). */
function offsetOf(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/** The wall-clock range of a value, or undefined for a malformed or impossible one (month 13, Feb 30). */
function wallClockRange(text: string): { range: MsRange; offset: number } | undefined {
  const m = FORMAT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const year = Number(y);
  if (year < 1) return undefined;
  if (mo === undefined) return { range: { start: utc(year, 1, 1), end: utc(year + 1, 1, 1) }, offset: 0 };
  const month = Number(mo);
  if (month < 1 || month > 12) return undefined;
  if (d === undefined) {
    return { range: { start: utc(year, month, 1), end: utc(year, month + 1, 1) }, offset: 0 };
  }
  const day = Number(d);
  if (day < 1 || day > daysIn(year, month)) return undefined;
  if (h === undefined)
    return { range: { start: utc(year, month, day), end: utc(year, month, day + 1) }, offset: 0 };
  const [hour, minute, second] = [Number(h), Number(mi), Number(s ?? 0)];
  // A leap second (`:60`) is a valid FHIR time; it reads as the first instant of the next minute.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const offset = offsetOf(zone);
  if (offset === undefined) return undefined;
  const digits = fraction?.length ?? 0;
  const ms = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const start = utc(year, month, day, hour, minute, second, ms);
  const width = s === undefined ? 60_000 : fraction === undefined ? 1000 : 10 ** Math.max(0, 3 - digits);
  return { range: { start, end: start + width }, offset };
}

/**
 * Reads one date search value: an optional prefix (none means `eq`) and a date of any FHIR precision.
 * A `+` of a zone that reached us as a space (an unencoded `+` in a query string) is read as `+`.
 */
export function parseDateSearch(raw: string): DateSearchResult {
  const m = /^([a-zA-Z]{2})?(.*)$/s.exec(raw)!;
  const prefix = (m[1] ?? 'eq') as DatePrefix;
  if (!DATE_PREFIXES.includes(prefix)) return { ok: false, problem: 'operator' };
  const text = m[2]!.replace(/^(\S+T[\d:.]+) (\d{2}:\d{2})$/, '$1+$2');
  const parsed = wallClockRange(text);
  if (!parsed) return { ok: false, problem: 'value' };
  const { range, offset } = parsed;
  return {
    ok: true,
    value: {
      prefix,
      wallClock: range,
      instant: { start: range.start - offset, end: range.end - offset },
    },
  };
}

/**
 * The interval of an instant column (epoch ms, e.g. `last_updated`) that matches the search. The column
 * holds points, so "the range above the value intersects the target" (`gt`) is `v >= end`, and so on.
 */
export function instantInterval({ prefix, instant: { start, end } }: DateSearch): ColumnInterval<number> {
  switch (prefix) {
    case 'eq':
      return { from: start, to: end };
    case 'ne':
      return { from: start, to: end, outside: true };
    case 'ge':
      return { from: start };
    case 'gt':
    case 'sa':
      return { from: end };
    case 'le':
      return { to: end };
    case 'lt':
    case 'eb':
      return { to: start };
  }
}

/** `YYYY-MM-DD` of a UTC instant; past year 9999 a text above every date, so bounds stay comparable. */
function dayText(ms: number): string {
  const date = new Date(ms);
  return date.getUTCFullYear() > 9999 ? '9999-99-99' : date.toISOString().slice(0, 10);
}
const floorDay = (ms: number) => dayText(ms);
const ceilDay = (ms: number) => dayText(ms % DAY === 0 ? ms : ms + DAY);

/**
 * The interval of a date-only column (`YYYY-MM-DD` text, e.g. `service_date`) that matches the search.
 * Each stored date stands for its whole day `[D, D+1)`, and the FHIR R4 §3.1.1.5.6 rules are applied to
 * that range: `eq` — the day lies within the value's range; `ge`/`gt` — the day reaches the value or
 * what follows it; `le`/`lt` — the day starts before the value's end or start; `sa`/`eb` — the day starts
 * after or ends before the value. For values of day precision or coarser these are the plain calendar
 * comparisons (`gt2024` → on or after 2025-01-01).
 *
 * The zone: a stored service date is a calendar date with no zone (where the care happened), so a dateTime
 * value is compared by its wall clock as written — `ge2024-06-01T23:00:00-05:00` starts on June 1, not on
 * June 2 as its UTC instant would. Zoneless dateTimes read the same way.
 */
export function dayInterval({ prefix, wallClock: { start, end } }: DateSearch): ColumnInterval<string> {
  switch (prefix) {
    case 'eq':
      return { from: ceilDay(start), to: floorDay(end) };
    case 'ne':
      return { from: ceilDay(start), to: floorDay(end), outside: true };
    case 'ge':
      return { from: floorDay(start) };
    case 'gt':
      return { from: floorDay(end) };
    case 'sa':
      return { from: ceilDay(end) };
    case 'le':
      return { to: ceilDay(end) };
    case 'lt':
      return { to: ceilDay(start) };
    case 'eb':
      return { to: floorDay(start) };
  }
}

/** The calendar days a stored date spans, `first` to `last` inclusive, both `YYYY-MM-DD`. */
export interface DayRange {
  first: string;
  last: string;
}

/**
 * A stored FHIR date or dateTime as the days it spans (FHIR R4 §2.1.0: a date of year or month precision
 * is the whole year or month): `2024` is 2024-01-01 to 2024-12-31, `2024-06-01T10:00:00Z` the one day as
 * written (its zone ignored, like a search value compared with a date-only column). Undefined for a date
 * that cannot be (month 13, Feb 30).
 */
export function storedDayRange(text: string): DayRange | undefined {
  const key = text.slice(0, 10);
  let range = storedRanges.get(key);
  if (range === undefined && !storedRanges.has(key)) {
    const parsed = wallClockRange(key);
    range = parsed && { first: dayText(parsed.range.start), last: dayText(parsed.range.end - DAY) };
    if (storedRanges.size >= STORED_RANGES_KEPT) storedRanges.clear();
    storedRanges.set(key, range);
  }
  return range && { ...range };
}

/** The ranges `storedDayRange` has read (a load of claims names the same days many times), bounded. */
const storedRanges = new Map<string, DayRange | undefined>();
const STORED_RANGES_KEPT = 20_000;

/** One comparison of a stored range's `first` or `last` day with a day (`YYYY-MM-DD` text). */
export interface DayBoundTest {
  bound: 'first' | 'last';
  op: '>=' | '<';
  day: string;
}

/** The stored day ranges that match a search: those passing every test of at least one group. */
export type DayRangeMatch = DayBoundTest[][];

/**
 * Which stored day ranges `[first, last]` match the search: the rules of `dayInterval`, read for a range of
 * days instead of one day (a stored value of month or year precision). With the search value's range
 * `[s, e)`: `eq` — the stored days lie within it; `ne` — some stored day lies outside it; `ge`/`gt` — the
 * stored days reach `s` / `e` or beyond; `le`/`lt` — they start before `e` / `s`; `sa` — they start at or
 * after `e`; `eb` — they end before `s`. For a single day (`first` = `last`) these are exactly
 * `dayInterval`'s conditions, so `service-date` and the multi-valued date parameters agree.
 */
export function dayRangeMatch({ prefix, wallClock: { start, end } }: DateSearch): DayRangeMatch {
  const test = (bound: DayBoundTest['bound'], op: DayBoundTest['op'], day: string): DayBoundTest => ({
    bound,
    op,
    day,
  });
  switch (prefix) {
    case 'eq':
      return [[test('first', '>=', ceilDay(start)), test('last', '<', floorDay(end))]];
    case 'ne':
      return [[test('first', '<', ceilDay(start))], [test('last', '>=', floorDay(end))]];
    case 'ge':
      return [[test('last', '>=', floorDay(start))]];
    case 'gt':
      return [[test('last', '>=', floorDay(end))]];
    case 'sa':
      return [[test('first', '>=', ceilDay(end))]];
    case 'le':
      return [[test('first', '<', ceilDay(end))]];
    case 'lt':
      return [[test('first', '<', ceilDay(start))]];
    case 'eb':
      return [[test('last', '<', floorDay(start))]];
  }
}
