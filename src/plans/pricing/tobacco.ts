import { completedMonths, parseCalendarDate } from './calendar-date.js';

/** The API's Person fields about tobacco. */
export interface TobaccoInput {
  uses_tobacco?: boolean | null;
  last_tobacco_use_date?: string | null;
}

/**
 * The longest look-back federal law allows: "tobacco use" means use "within no longer than the past 6
 * months" (45 CFR 144.103). Used when a plan's own look-back (Business Rules PUF
 * `MinimumTobaccoFreeMonthsRule`) is unknown.
 */
export const FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS = 6;

/**
 * Whether a person is rated as a tobacco user for a plan. 45 CFR 147.102(a)(1)(iv) lets the premium vary
 * by tobacco use (at most 1.5:1), with tobacco use as defined in 45 CFR 144.103; the plan's look-back is
 * its filed rule. As the CMS Marketplace API's `Person` has it (docs/decisions.md#tobacco-rating): a user
 * iff `uses_tobacco` and either no `last_tobacco_use_date`, or fewer whole months from that date to the
 * effective date than the look-back.
 */
export function ratedAsTobaccoUser(
  person: TobaccoInput,
  effectiveDate: string,
  lookbackMonths: number = FEDERAL_MAX_TOBACCO_LOOKBACK_MONTHS,
): boolean {
  if (!person.uses_tobacco) return false;
  if (!person.last_tobacco_use_date) return true;
  const months = completedMonths(
    parseCalendarDate(person.last_tobacco_use_date),
    parseCalendarDate(effectiveDate),
  );
  return months < lookbackMonths;
}
