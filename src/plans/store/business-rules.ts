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
  /**
   * How many underage (under 21) dependents a policy's premium counts, where the issuer states fewer than
   * the federal three: per kind of family (2014–2020 layout) or for any policy (2021 on).
   */
  ratedChildren: RatedChildrenRule;
}

/**
 * The Business Rules PUF's limits on the rated children of a policy, each null where the issuer states
 * none below the federal three ("3 or more", or not stated): `TwoParentFamilyMaxDependentsRule`,
 * `SingleParentFamilyMaxDependentsRule`, `ChildrenOnlyContractMaxChildrenRule` (2014–2020) and
 * `MaximumUnderageDependent` (2021 on).
 */
export interface RatedChildrenRule {
  twoParent: number | null;
  singleParent: number | null;
  childrenOnly: number | null;
  anyPolicy: number | null;
}

type StatedLimits = Record<keyof RatedChildrenRule, number | null | undefined>;

/**
 * "1" or "2" → that number; "3 or more" or any other value → null (no limit below the federal three);
 * empty or absent → undefined (the row does not say, so a less specific row may).
 */
function childLimit(value: unknown): number | null | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return /^\s*[12]\s*$/.test(value) ? Number(value) : null;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/** A row's rules, with which family-size limits it states at all (for merging). */
function parseRule(detail: string): { rule: BusinessRule; limits: StatedLimits } {
  const parsed = JSON.parse(detail) as Record<string, unknown> | null;
  const list = parsed?.eligible_dependents;
  const limits: StatedLimits = {
    twoParent: childLimit(parsed?.two_parent_family_max_dependents),
    singleParent: childLimit(parsed?.single_parent_family_max_dependents),
    childrenOnly: childLimit(parsed?.children_only_contract_max_children),
    anyPolicy: childLimit(parsed?.max_underage_dependents),
  };
  const rule: BusinessRule = {
    eligibleDependents: Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [],
    dependentMaxAge: numberOrNull(parsed?.dependent_max_age),
    tobaccoFreeMonths: numberOrNull(parsed?.minimum_tobacco_free_months),
    ageRule: typeof parsed?.age_determination_rule === 'string' ? parsed.age_determination_rule : null,
    cohabitation: Array.isArray(parsed?.dependent_relationships)
      ? (parsed.dependent_relationships as BusinessRule['cohabitation'])
      : [],
    ratedChildren: mergeLimits([limits]),
  };
  return { rule, limits };
}

/** Each family-size limit from the first row (most specific first) that states it. */
function mergeLimits(rows: readonly StatedLimits[]): RatedChildrenRule {
  const pick = (key: keyof RatedChildrenRule) => rows.find((r) => r[key] !== undefined)?.[key] ?? null;
  return {
    twoParent: pick('twoParent'),
    singleParent: pick('singleParent'),
    childrenOnly: pick('childrenOnly'),
    anyPolicy: pick('anyPolicy'),
  };
}

export function readBusinessRule(detail: string): BusinessRule {
  return parseRule(detail).rule;
}

/**
 * A plan's rules from the rows that apply to it (its own, its product's, its issuer's): each field from
 * the most specific row that states it — a product row with an empty dependents cell does not erase
 * the issuer's list.
 */
export function mergeBusinessRules(rows: { scope_id: string; detail: string }[]): BusinessRule {
  const parsed = [...rows]
    .sort((a, b) => b.scope_id.length - a.scope_id.length)
    .map((r) => parseRule(r.detail));
  const rules = parsed.map((p) => p.rule);
  return {
    eligibleDependents: rules.find((r) => r.eligibleDependents.length > 0)?.eligibleDependents ?? [],
    dependentMaxAge: rules.find((r) => r.dependentMaxAge !== null)?.dependentMaxAge ?? null,
    tobaccoFreeMonths: rules.find((r) => r.tobaccoFreeMonths !== null)?.tobaccoFreeMonths ?? null,
    ageRule: rules.find((r) => r.ageRule)?.ageRule ?? null,
    cohabitation: rules.find((r) => r.cohabitation.length > 0)?.cohabitation ?? [],
    ratedChildren: mergeLimits(parsed.map((p) => p.limits)),
  };
}
