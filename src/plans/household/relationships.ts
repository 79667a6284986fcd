/** `relationship` of a person to the first person of the household (CMS `RelationshipEnum`). */
export const RELATIONSHIPS_2021 = [
  'Self',
  'Brother or Sister',
  'Child',
  'Collateral Dependent',
  'Ex-Spouse',
  'Foster Child',
  'Grandson or Granddaughter',
  'Life Partner',
  'Nephew or Niece',
  'Other Relationship',
  'Other Relative',
  'Sponsored Dependent',
  'Spouse',
  'Stepson or Stepdaughter',
  'Ward',
] as const;

/**
 * Valid for market year 2020 and earlier only (docs/decisions.md#household-request; the CMS document's
 * "Relationship" table).
 */
export const RELATIONSHIPS_TO_2020 = [
  'Adopted Child',
  'Annultant',
  'Brother-in-Law or Sister-in-Law',
  'Court Appointed Guardian',
  'Dependent of a Minor Dependent',
  'Guardian',
  'Son-in-Law or Daughter-in-Law',
  'Stepparent',
] as const;

export type Relationship = (typeof RELATIONSHIPS_2021)[number] | (typeof RELATIONSHIPS_TO_2020)[number];

const LAST_YEAR_OF_OLD_RELATIONSHIPS = 2020;

/** Whether `relationship` may be given for market year `year`: the 2020-only values are refused from 2021. */
export function relationshipValidIn(relationship: Relationship, year: number): boolean {
  return (
    year <= LAST_YEAR_OF_OLD_RELATIONSHIPS ||
    !(RELATIONSHIPS_TO_2020 as readonly string[]).includes(relationship)
  );
}
