import type { BenefitDetail, CostSharing, CsrVariant } from './plan-detail.js';

/** A benefit with the CSR variant of each of its cost sharings (CMS `Benefit`, `CostSharing`). */
export interface PlanBenefit extends Omit<BenefitDetail, 'cost_sharings' | 'excluded_from_inn_moop'> {
  cost_sharings: (CostSharing & { csr: CsrVariant })[];
}

/** What one variant's own row says of a benefit beyond the API's Benefit (the out-of-pocket estimate reads it). */
export interface VariantBenefit {
  covered: boolean;
  /** `IsExclFromInnMOOP`; null when the row does not say. */
  excludedFromInnMoop: boolean | null;
}

/**
 * One Benefit per benefit name, its cost sharings gathered from every variant and tagged with the
 * variant's CSR; the other fields come from the standard variant's row (the first row when it has none).
 * With `byVariant`, also each variant's own rows by benefit name (variant id → name → what its row says).
 */
export function gatherBenefits(
  rows: { variant_id: string; detail: string }[],
  csrOf: Map<string, CsrVariant>,
  standardId: string | undefined,
  byVariant?: Map<string, Map<string, VariantBenefit>>,
): PlanBenefit[] {
  const byName = new Map<string, PlanBenefit>();
  for (const row of rows) {
    const { excluded_from_inn_moop: excluded, ...detail } = JSON.parse(row.detail) as BenefitDetail;
    if (byVariant) {
      let own = byVariant.get(row.variant_id);
      if (!own) byVariant.set(row.variant_id, (own = new Map()));
      own.set(detail.name, { covered: detail.covered, excludedFromInnMoop: excluded ?? null });
    }
    const csr = csrOf.get(row.variant_id) ?? 'Unknown CSR';
    const sharings = detail.cost_sharings.map((c) => ({ ...c, csr }));
    const known = byName.get(detail.name);
    if (!known) {
      byName.set(detail.name, { ...detail, cost_sharings: sharings });
      continue;
    }
    const merged = row.variant_id === standardId ? { ...detail, cost_sharings: known.cost_sharings } : known;
    merged.cost_sharings.push(...sharings);
    byName.set(detail.name, merged);
  }
  return [...byName.values()];
}
