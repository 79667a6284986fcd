import type { RatedChildrenRule } from '../store/business-rules.js';

/** The federal limit: the premiums of no more than the three oldest children under 21 count (45 CFR 147.102(c)(1)). */
export const FEDERAL_RATED_CHILDREN = 3;

const SPOUSES = new Set(['Spouse', 'Life Partner']);

/** A covered member as the family-size rules see them. */
interface Covered {
  age: number;
  relationship?: string | null;
}

/**
 * How many children under 21 a policy's premium counts: the federal three, or fewer where the issuer's
 * Business Rules PUF states fewer for this kind of policy — children only (no covered member is 21 or over
 * or a spouse), two parents (a covered spouse or life partner), one parent otherwise — or for any policy
 * (docs/decisions.md#rated-children). "No more than the three oldest" lets an issuer count fewer.
 */
export function ratedChildrenLimit(
  rule: RatedChildrenRule | null | undefined,
  covered: readonly Covered[],
): number {
  if (!rule) return FEDERAL_RATED_CHILDREN;
  const partner = (m: Covered) => SPOUSES.has(m.relationship ?? '');
  const family = !covered.some((m) => m.age >= 21 || partner(m))
    ? rule.childrenOnly
    : covered.some(partner)
      ? rule.twoParent
      : rule.singleParent;
  return Math.min(
    FEDERAL_RATED_CHILDREN,
    family ?? FEDERAL_RATED_CHILDREN,
    rule.anyPolicy ?? FEDERAL_RATED_CHILDREN,
  );
}
