import { completedYears, parseCalendarDate } from './calendar-date.js';

/** The API's Person fields that give an age: `age` wins over `dob` (CMS Marketplace API, Person). */
export interface AgeInput {
  age?: number | null;
  dob?: string | null;
}

/**
 * The issuer's age determination rule (Business Rules PUF `AgeDeterminationRule`): age on the coverage
 * effective date (the default) or on 1 January of the effective date's year.
 */
export type AgeRule = 'effective-date' | 'january-1';

/**
 * The coverage effective date: `household.effective_date`, or 1 January of the market year
 * (docs/decisions.md#effective-date-and-age).
 */
export function coverageEffectiveDate(marketYear: number, effectiveDate?: string | null): string {
  if (effectiveDate) return effectiveDate;
  return `${String(marketYear).padStart(4, '0')}-01-01`;
}

/**
 * A person's rating age. CMS Marketplace API, Person: `age` as given ("no calculation if both"); else the
 * completed years from `dob` at the coverage effective date, or at 1 January of its year when the plan's
 * issuer rates that way (45 CFR 147.102(a)(1)(iii) rates by age; the date it is taken on is the issuer's
 * filed rule). Throws RangeError when neither is given or the date is not a date.
 */
export function ratingAge(person: AgeInput, effectiveDate: string, rule: AgeRule = 'effective-date'): number {
  if (person.age !== undefined && person.age !== null) {
    if (!Number.isInteger(person.age) || person.age < 0) throw new RangeError(`bad age: ${person.age}`);
    return person.age;
  }
  if (!person.dob) throw new RangeError('a person needs an age or a dob');
  const on = parseCalendarDate(effectiveDate);
  const at = rule === 'january-1' ? { year: on.year, month: 1, day: 1 } : on;
  const age = completedYears(parseCalendarDate(person.dob), at);
  if (age < 0) throw new RangeError(`dob ${person.dob} is after ${effectiveDate}`);
  return age;
}

/** First plan year with the 0–14 child band (HHS Notice of Benefit and Payment Parameters for 2018). */
const SINGLE_YEAR_CHILD_BANDS_FROM = 2018;

/**
 * The Rate PUF `Age` value a person is rated at. 45 CFR 147.102(d), uniform age bands: (d)(1) children,
 * (d)(2) one-year bands for adults 21–63, (d)(3) one band for 64 and older. For plan years from 2018 the
 * child bands are 0–14 and one-year bands 15–20 (amended by the HHS Notice of Benefit and Payment
 * Parameters for 2018, 81 FR 94058); before 2018 a single 0–20 band. So PY2018+ `0-14`, `15` … `63`,
 * `64 and over`; earlier `0-20`, `21` … `63`, `64 and over`. Past 64 (Medicare age) the 64 rate applies.
 */
export function rateAgeKey(age: number, planYear: number): string {
  if (!Number.isInteger(age) || age < 0) throw new RangeError(`bad age: ${age}`);
  if (age >= 64) return '64 and over';
  if (planYear >= SINGLE_YEAR_CHILD_BANDS_FROM) return age <= 14 ? '0-14' : String(age);
  return age <= 20 ? '0-20' : String(age);
}
