import type { MarketPlan } from '../market/county-market.js';
import type { CostLimit, CsrVariant } from '../store/plan-detail.js';
import type { PlanDetails } from '../store/plan-details.js';
import { perObject } from '../../shared/memo.js';

/**
 * The cost-sharing variant a plan shows a household, and that variant's deductible. The household's
 * variant (credit-pricer.ts `csrFor`) is shown when the plan publishes cost sharing for it; otherwise the
 * standard one.
 */

const STANDARD: CsrVariant = 'Exchange variant (no CSR)';

function showable(details: PlanDetails, csr: CsrVariant): CsrVariant {
  if (csr === STANDARD) return csr;
  const has = (rows: CostLimit[]) => rows.some((r) => r.csr === csr);
  return has(details.deductibles) || has(details.moops) ? csr : STANDARD;
}

/** What a search needs of a plan's variant, worked out once per county market (details are cached). */
interface VariantFacts {
  shown: CsrVariant;
  deductible: number | null;
}
const facts = perObject<PlanDetails, CsrVariant, VariantFacts>();

function variantFacts(details: PlanDetails, csr: CsrVariant): VariantFacts {
  return facts(details, csr, () => {
    const shown = showable(details, csr);
    return { shown, deductible: individualDeductible(details, shown) };
  });
}

/** The variant the plan shows: the household's, when the plan publishes cost sharing for it. */
export function shownVariant(details: PlanDetails, csr: CsrVariant): CsrVariant {
  return variantFacts(details, csr).shown;
}

/** The individual in-network deductible of the variant the plan shows for `csr`, $. */
export function shownDeductible(details: PlanDetails, csr: CsrVariant): number | null {
  return variantFacts(details, csr).deductible;
}

const deductiblesByList = perObject<readonly MarketPlan[], CsrVariant, readonly (number | null)[]>();

/** `shownDeductible` of every plan of a list for `csr`, in its order (kept per list: lists live in cached markets). */
export function shownDeductibles(plans: readonly MarketPlan[], csr: CsrVariant): readonly (number | null)[] {
  return deductiblesByList(plans, csr, () => plans.map((plan) => shownDeductible(plan.details, csr)));
}

/** The individual in-network deductible of the variant (combined medical and drug when published), $. */
function individualDeductible(details: PlanDetails, csr: CsrVariant): number | null {
  const rows = details.deductibles.filter(
    (d) =>
      d.csr === csr && d.network_tier === 'In-Network' && d.family_cost === 'Individual' && d.amount !== null,
  );
  const combined = rows.find((d) => /combined/i.test(d.type));
  return (combined ?? rows[0])?.amount ?? null;
}
