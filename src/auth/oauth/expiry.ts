/**
 * Adds calendar months in UTC, clamping to the last day of the target month (31 Jan + 1 month = 28/29 Feb),
 * the way a "13 months from today" grant is read by people.
 */
export function addCalendarMonths(instant: number, months: number): number {
  const d = new Date(instant);
  const targetMonth = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), targetMonth + 1, 0)).getUTCDate();
  return Date.UTC(
    d.getUTCFullYear(),
    targetMonth,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** `access_grant_expiration` as `YYYY-MM-DD HH:MM:SSZ` in UTC (docs/decisions.md#grant-expiration-format). */
export function formatGrantExpiration(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z');
}
