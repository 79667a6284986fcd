import type { BusinessRule } from '../store/business-rules.js';

/**
 * Who may enrol in a plan together: the issuer's Business Rules PUF rules on dependents, applied to the
 * people of a household or an enrollment group (docs/decisions.md#enrollment-rules). Pure: the market
 * carries each plan's rules, the quote and the enrollment check apply them.
 */

/** What of an issuer's rules decides who may be a dependent on its plan. */
export interface EnrollmentRules {
  /** The issuer's id, for the reasons given. */
  issuerId: string;
  /** Relationships to the subscriber accepted as dependents, in the API's spelling; null when not stated. */
  dependents: ReadonlySet<string> | null;
  /** The oldest a child-like dependent may be (`DependentMaximumAgRule`); null when not stated. */
  maxDependentAge: number | null;
}

/** A person of the group, as a plan sees them: their age under the plan's age rule. */
export interface Applicant {
  /** Index in `household.people` (or in the group's enrollees). */
  index: number;
  /** How an answer names the person: `household.people[2]`, `enrollee 7654321`. */
  label: string;
  relationship: string | null | undefined;
  age: number;
  /** The subscriber: the first person, or the one whose relationship is `Self`. */
  subscriber: boolean;
}

export type IneligibleRule = 'relationship' | 'max_age_child';

/** Why a person may not enrol in a plan with the others (the answer's `ineligible_reasons`). */
export interface IneligibleReason {
  person: number;
  rule: IneligibleRule;
  reason: string;
}

/** PUF spellings of relationships that the API spells otherwise (2014 PUF: "Dependent on a Minor Dependent"). */
const API_SPELLING: Readonly<Record<string, string>> = {
  'Dependent on a Minor Dependent': 'Dependent of a Minor Dependent',
  Annuitant: 'Annultant',
};

/**
 * The relationships a dependent age limit applies to: children and those in a child's place. The
 * subscriber's spouse or partner, parents, guardians and in-laws are adults whom "dependent" age limits
 * do not describe; the CMS certification FAQ applies the limit to brothers and sisters too.
 */
const CHILD_LIKE = new Set([
  'Child',
  'Adopted Child',
  'Foster Child',
  'Stepson or Stepdaughter',
  'Ward',
  'Grandson or Granddaughter',
  'Nephew or Niece',
  'Brother or Sister',
  'Dependent of a Minor Dependent',
]);

/** A plan's enrollment rules from its merged Business Rules PUF rows; null when it has none. */
export function enrollmentRulesOf(issuerId: string, rule: BusinessRule | null): EnrollmentRules | null {
  if (!rule) return null;
  const dependents =
    rule.eligibleDependents.length > 0
      ? new Set(rule.eligibleDependents.map((r) => API_SPELLING[r] ?? r))
      : null;
  if (!dependents && rule.dependentMaxAge === null) return null;
  return { issuerId, dependents, maxDependentAge: rule.dependentMaxAge };
}

const NONE: readonly IneligibleReason[] = [];

/**
 * The people the plan's rules refuse, with the rule and why; empty when all may enrol together. Only
 * what the request states is checked: a person without a relationship is not refused (nothing says
 * what they are to the subscriber), and neither is the subscriber.
 */
export function ineligibleReasons(
  applicants: readonly Applicant[],
  rules: EnrollmentRules | null,
): readonly IneligibleReason[] {
  if (!rules) return NONE;
  let reasons: IneligibleReason[] | undefined;
  for (const person of applicants) {
    const relationship = person.relationship;
    if (person.subscriber || !relationship || relationship === 'Self') continue;
    if (rules.dependents && !rules.dependents.has(relationship)) {
      (reasons ??= []).push({
        person: person.index,
        rule: 'relationship',
        reason:
          `${person.label} ("${relationship}") is not a relationship issuer ${rules.issuerId} accepts as a ` +
          `dependent (Business Rules PUF: ${[...rules.dependents].join(', ')})`,
      });
    } else if (
      rules.maxDependentAge !== null &&
      CHILD_LIKE.has(relationship) &&
      person.age > rules.maxDependentAge
    ) {
      (reasons ??= []).push({
        person: person.index,
        rule: 'max_age_child',
        reason:
          `${person.label} ("${relationship}", age ${person.age}) is older than ${rules.maxDependentAge}, ` +
          `the oldest a dependent may be on issuer ${rules.issuerId}'s plan (Business Rules PUF)`,
      });
    }
  }
  return reasons ?? NONE;
}
