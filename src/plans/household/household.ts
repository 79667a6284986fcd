import type { UnemploymentReceived } from '../eligibility/unemployment-2021.js';
import { planError } from '../errors.js';
import { coverageEffectiveDate, ratingAge } from '../pricing/age.js';
import { parseCalendarDate } from '../pricing/calendar-date.js';
import { dollarsToCents, type Cents } from '../pricing/money.js';
import type { HouseholdInput, PersonInput } from './household-input.js';
import { relationshipValidIn } from './relationships.js';

/** A person of the request with the age they are rated at (pricing/age.ts). */
export interface Member {
  index: number;
  input: PersonInput;
  age: number;
}

/** The household as the priced endpoints read it. */
export interface SettledHousehold {
  effectiveDate: string;
  members: Member[];
  /**
   * Annual income in cents, or null when unknown: -1 in a request (absent only in a household built in
   * code): no tax credit is estimated.
   */
  income: Cents | null;
  unemployment: UnemploymentReceived | undefined;
}

function invalidHousehold(fix: string): never {
  throw planError(1003, fix, 'invalid household request');
}

function checkDate(text: string, field: string): void {
  try {
    parseCalendarDate(text);
  } catch {
    invalidHousehold(`${field}: ${text} is not a calendar date`);
  }
}

/**
 * Reads the household: the effective date (`effective_date`, else 1 January of the market year), each
 * person's age (`age` wins; else completed years from `dob` on the effective date), relationships valid for
 * the year (the 2020-only values are refused from 2021: docs/decisions.md#household-request), and the income
 * in cents.
 */
export function settleHousehold(household: HouseholdInput | undefined, year: number): SettledHousehold {
  const effectiveDate = coverageEffectiveDate(year, household?.effective_date);
  // The default (1 January of the market year) is a date by construction.
  if (household?.effective_date) checkDate(effectiveDate, 'household.effective_date');
  if (!effectiveDate.startsWith(`${year}-`)) {
    invalidHousehold(`household.effective_date: ${effectiveDate} is not in market year ${year}`);
  }
  const people = household?.people ?? [];
  const members = people.map((input, index) => {
    const at = `household.people[${index}]`;
    if (input.dob) checkDate(input.dob, `${at}.dob`);
    if (input.last_tobacco_use_date) checkDate(input.last_tobacco_use_date, `${at}.last_tobacco_use_date`);
    if (input.age === undefined && !input.dob) invalidHousehold(`${at}: age or dob is required`);
    if (
      input.utilization !== undefined &&
      input.utilization_level !== undefined &&
      input.utilization !== input.utilization_level
    ) {
      invalidHousehold(
        `${at}: utilization_level (${input.utilization_level}) and utilization (${input.utilization}) differ; ` +
          'give one (utilization is the older name of utilization_level)',
      );
    }
    if (input.relationship && !relationshipValidIn(input.relationship, year)) {
      invalidHousehold(`${at}.relationship: "${input.relationship}" is not valid for market year ${year}`);
    }
    let age: number;
    try {
      age = ratingAge(input, effectiveDate);
    } catch {
      invalidHousehold(`${at}.dob: ${input.dob} is after the effective date ${effectiveDate}`);
    }
    return { index, input, age };
  });
  const income = household?.income;
  if (income !== undefined && income < 0 && income !== -1) {
    invalidHousehold(`household.income: ${income} is neither an amount (0 or more) nor -1 (unknown)`);
  }
  return {
    effectiveDate,
    members,
    income: income === undefined || income < 0 ? null : dollarsToCents(income),
    unemployment: household?.unemployment_received,
  };
}
