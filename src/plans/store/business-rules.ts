/** What the plan API shows of a `business_rules.detail` (the `business-rules` ingest kind, Business Rules PUF). */
export interface BusinessRule {
  /** Relationships to the subscriber accepted as dependents (`Issuer.eligible_dependents`). */
  eligibleDependents: string[];
  /** The age up to which a child may be a dependent (`Plan.max_age_child`), when stated. */
  dependentMaxAge: number | null;
  /** Months without tobacco before a person is rated as a non-user (`Plan.tobacco_lookback`), when stated. */
  tobaccoFreeMonths: number | null;
  /** `AgeDeterminationRule` as the PUF writes it ("Age on effective date", …), when stated. */
  ageRule: string | null;
  /** `CohabitationRule`: per relationship, whether the dependant must live with the subscriber. */
  cohabitation: { relationship: string; cohabitation_required: boolean }[];
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

export function readBusinessRule(detail: string): BusinessRule {
  const parsed = JSON.parse(detail) as Record<string, unknown> | null;
  const list = parsed?.eligible_dependents;
  return {
    eligibleDependents: Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [],
    dependentMaxAge: numberOrNull(parsed?.dependent_max_age),
    tobaccoFreeMonths: numberOrNull(parsed?.minimum_tobacco_free_months),
    ageRule: typeof parsed?.age_determination_rule === 'string' ? parsed.age_determination_rule : null,
    cohabitation: Array.isArray(parsed?.dependent_relationships)
      ? (parsed.dependent_relationships as BusinessRule['cohabitation'])
      : [],
  };
}

/**
 * A plan's rules from the rows that apply to it (its own, its product's, its issuer's): each field from
 * the most specific row that states it — a product row with an empty dependents cell does not erase
 * the issuer's list.
 */
export function mergeBusinessRules(rows: { scope_id: string; detail: string }[]): BusinessRule {
  const rules = [...rows]
    .sort((a, b) => b.scope_id.length - a.scope_id.length)
    .map((r) => readBusinessRule(r.detail));
  return {
    eligibleDependents: rules.find((r) => r.eligibleDependents.length > 0)?.eligibleDependents ?? [],
    dependentMaxAge: rules.find((r) => r.dependentMaxAge !== null)?.dependentMaxAge ?? null,
    tobaccoFreeMonths: rules.find((r) => r.tobaccoFreeMonths !== null)?.tobaccoFreeMonths ?? null,
    ageRule: rules.find((r) => r.ageRule)?.ageRule ?? null,
    cohabitation: rules.find((r) => r.cohabitation.length > 0)?.cohabitation ?? [],
  };
}
