import type { BenefitDetail, CostSharing, CsrVariant } from './plan-detail.js';

/** A benefit with the CSR variant of each of its cost sharings (CMS `Benefit`, `CostSharing`). */
export interface PlanBenefit extends Omit<BenefitDetail, 'cost_sharings'> {
  cost_sharings: (CostSharing & { csr: CsrVariant })[];
}

/**
 * One Benefit per benefit name, its cost sharings gathered from every variant and tagged with the
 * variant's CSR; the other fields come from the standard variant's row (the first row when it has none).
 */
export function gatherBenefits(
  rows: { variant_id: string; detail: string }[],
  csrOf: Map<string, CsrVariant>,
  standardId: string | undefined,
): PlanBenefit[] {
  const byName = new Map<string, PlanBenefit>();
  for (const row of rows) {
    const detail = JSON.parse(row.detail) as BenefitDetail;
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
