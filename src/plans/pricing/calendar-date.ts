/** Calendar dates of the API (`YYYY-MM-DD`, no time zone) and the whole years and months between two. */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** A `YYYY-MM-DD` date; throws RangeError for anything else, including 2023-02-29. */
export function parseCalendarDate(text: string): CalendarDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(text)}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`no such date: ${text}`);
  }
  return { year, month, day };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function before(a: CalendarDate, monthOf: number, dayOf: number): boolean {
  return a.month < monthOf || (a.month === monthOf && a.day < dayOf);
}

/**
 * Completed years from `from` to `to` (an age): the count rises on the anniversary. Someone born on
 * 29 February completes a year on 1 March in common years.
 */
export function completedYears(from: CalendarDate, to: CalendarDate): number {
  return to.year - from.year - (before(to, from.month, from.day) ? 1 : 0);
}

/**
 * Completed months from `from` to `to`: the count rises on the same day of a later month (or on the 1st
 * of the month after, when that month is shorter). Negative when `to` is earlier.
 */
export function completedMonths(from: CalendarDate, to: CalendarDate): number {
  const months = (to.year - from.year) * 12 + (to.month - from.month);
  return months - (to.day < from.day ? 1 : 0);
}
