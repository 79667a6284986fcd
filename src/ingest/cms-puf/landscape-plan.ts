import { write, type Write } from '../engine/writes.js';
import type { PlanDetail, VariantDetail } from '../../plans/store/plan-detail.js';
import type { Columns } from '../engine/headers.js';
import { Reject } from '../engine/tabular-format.js';
import { COLUMN, METAL_LEVELS, PLAN_TYPES, VARIANTS } from './landscape-columns.js';
import { costLimits, ehbFraction } from './landscape-values.js';

const SOURCE = 'landscape';

/** What one landscape row says about its plan, issuer and CSR variants (the same on every county row). */
export interface PlanWrites {
  plan: Write;
  issuer: Write;
  variants: Write[];
}

const orNull = (text: string) => (text === '' ? null : text);

/**
 * The plan, issuer and variant rows of a landscape row. The landscape publishes less than the Plan
 * Attributes PUF: what it lacks is stated as the API's "no" (national network, wellness program,
 * referral, HSA) or null (dates, new plan, actuarial value), never guessed.
 */
export function planWrites(
  cells: Record<string, string>,
  col: Columns,
  at: { year: number; planId: string; state: string; issuerId: string },
): PlanWrites | Reject {
  const { year, planId, state, issuerId } = at;
  const metalText = col.get(cells, ...COLUMN.metal);
  const metal = METAL_LEVELS.get(metalText.toLowerCase());
  if (!metal) return new Reject(`Metal Level "${metalText}" is not a metal level`);
  const typeText = col.get(cells, ...COLUMN.planType);
  const planType = PLAN_TYPES.get(typeText.toLowerCase());
  if (!planType) return new Reject(`Plan Type "${typeText}" is not a plan type`);
  const name = col.get(cells, ...COLUMN.planName);
  if (name === '') return new Reject('Plan Marketing Name is empty');
  const issuerName = col.get(cells, ...COLUMN.issuerName);
  if (issuerName === '') return new Reject('Issuer Name is empty');
  const ehb = ehbFraction(col.get(cells, ...COLUMN.ehb));
  if (ehb instanceof Reject) return ehb;

  const variants: Write[] = [];
  for (const variant of VARIANTS) {
    const limits = costLimits(cells, col, variant);
    if (limits instanceof Reject) return limits;
    // A CSR variant exists where its cost-sharing columns are filled (silver plans only).
    const standard = variant.suffix === '01';
    if (!standard && limits.deductibles.length + limits.moops.length === 0) continue;
    const detail: VariantDetail = {
      csr: variant.csr,
      ...limits,
      sbcs: null,
      issuer_actuarial_value: null,
      hsa_eligible: false,
    };
    variants.push(
      write('plan_variants', {
        year,
        variant_id: `${planId}-${variant.suffix}`,
        plan_id: planId,
        // The API's CSR name, as the Plan Attributes format stores it.
        csr_type: variant.csr,
        name,
        source: SOURCE,
        detail: JSON.stringify(detail),
      }),
    );
  }

  const detail: PlanDetail = {
    issuer_name: issuerName,
    is_new_plan: null,
    child_only_offering: orNull(col.get(cells, ...COLUMN.childOnly)),
    disease_mgmt_programs: [],
    specialist_referral_required: false,
    has_national_network: false,
    guaranteed_rate: false,
    wellness_program: false,
    formulary_url: orNull(col.get(cells, ...COLUMN.formularyUrl)),
    brochure_url: orNull(col.get(cells, ...COLUMN.brochureUrl)),
    benefits_url: orNull(col.get(cells, ...COLUMN.sbcUrl)),
    network_url: orNull(col.get(cells, ...COLUMN.networkUrl)),
    enrollment_payment_url: null,
    effective_date: null,
    expiration_date: null,
  };
  return {
    plan: write('plans', {
      year,
      plan_id: planId,
      state,
      issuer_id: issuerId,
      name,
      market: 'Individual',
      dental_only: 0,
      metal_level: metal,
      plan_type: planType,
      design_type: 'NOT_APPLICABLE',
      service_area_id: null,
      network_id: null,
      hsa_eligible: 0,
      ehb_pct: ehb,
      source: SOURCE,
      detail: JSON.stringify(detail),
    }),
    issuer: write('issuers', {
      year,
      issuer_id: issuerId,
      state,
      name: issuerName,
      toll_free: orNull(col.get(cells, ...COLUMN.tollFree)),
      tty: orNull(col.get(cells, ...COLUMN.tty)),
      individual_url: null,
      shop_url: null,
      source: SOURCE,
    }),
    variants,
  };
}
