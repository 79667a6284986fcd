import { perObject } from '../../../shared/memo.js';
import type { CostLimit, CsrVariant } from '../../store/plan-detail.js';
import { COST_TERMS, type PlanDetails, type VariantCostTerms } from '../../store/plan-details.js';
import { shownVariant } from '../shown-variant.js';
import { costSharingRule, type CostSharingRule } from './cost-sharing-rules.js';
import type { LimitKind, Limits, OopcPlanTerms, ServiceTerms } from './plan-terms.js';
import { BENEFIT_SERVICES, SERVICE_BENEFITS, type BenefitService } from './services.js';

/**
 * A stored plan as the out-of-pocket model reads it: the in-network cost sharing, deductibles and MOOPs of
 * the variant the household sees, and the variant's Plan Attributes exceptions. Where CMS's code fails or
 * guesses, we say what we did in `notes` (docs/decisions.md#oopc-method).
 */

export type OopcNoteCode =
  | 'phrase-read'
  | 'phrase-unknown'
  | 'benefit-not-listed'
  | 'no-in-network-cost-sharing'
  | 'plan-cells-not-stored';

/** What the estimate assumed where the plan's data did not say, in words an answer can show. */
export interface OopcNote {
  code: OopcNoteCode;
  /** The PUF benefit name the note is about, if one. */
  benefit?: string;
  message: string;
}

export type PlanTermsResult =
  | { ok: true; terms: OopcPlanTerms; variant: CsrVariant; notes: readonly OopcNote[] }
  | { ok: false; code: 'no-benefits' | 'no-cost-limits'; reason: string };

const STANDARD: CsrVariant = 'Exchange variant (no CSR)';
const SILVER_ONLY = new Set<CsrVariant>([
  '73% AV Level Silver Plan CSR',
  '87% AV Level Silver Plan CSR',
  '94% AV Level Silver Plan CSR',
]);
const AI_AN = new Set<CsrVariant>([
  'Zero Cost Sharing Plan Variation',
  'Limited Cost Sharing Plan Variation',
]);

/**
 * The variant whose cost sharing prices the household: CMS's fallbacks (a silver CSR variant on a plan that
 * is not silver, or an AI/AN variant on a catastrophic plan, is the standard variant; `oopc.go`), then the
 * one the quote shows (`shown-variant.ts`: the standard one where the plan publishes none for it).
 */
export function oopcVariant(details: PlanDetails, metalLevel: string, csr: CsrVariant): CsrVariant {
  const standard =
    (SILVER_ONLY.has(csr) && metalLevel !== 'Silver') || (AI_AN.has(csr) && metalLevel === 'Catastrophic');
  return shownVariant(details, standard ? STANDARD : csr);
}

/** Deductible / MOOP `type` → the kind of services it limits. */
function kindOf(type: string): LimitKind {
  if (/combined|total/i.test(type)) return 'combined';
  return /drug/i.test(type) ? 'drug' : 'medical';
}

const WHO = { Individual: 'individual', 'Family Per Person': 'familyPerPerson', Family: 'family' } as const;

/** The variant's limits: the in-network amount, else the combined in-and-out-of-network one (`oopc.go`). */
function limitsOf(rows: readonly CostLimit[], csr: CsrVariant): Limits {
  const limits: Limits = { individual: {}, familyPerPerson: {}, family: {} };
  const inNetwork = new Set<string>();
  for (const row of rows) {
    if (row.csr !== csr || row.amount === null) continue;
    const who = WHO[row.family_cost];
    const kind = kindOf(row.type);
    if (row.network_tier === 'In-Network') {
      limits[who][kind] = row.amount;
      inNetwork.add(`${who}|${kind}`);
    } else if (row.network_tier === 'Combined In-Out of Network' && !inNetwork.has(`${who}|${kind}`)) {
      limits[who][kind] = row.amount;
    }
  }
  return limits;
}

const NOT_COVERED: ServiceTerms = {
  covered: false,
  rule: { copay: false, coinsurance: false, deductible: false, moop: false, copayBeforeDeductible: false },
  copay: 0,
  coinsurance: 0,
  copayPer: 'unit',
};

/** CMS's reading of a benefit whose in-network cells are empty or both "Not Applicable": no charge. */
const NO_CHARGE: CostSharingRule = costSharingRule('Not Applicable', 'Not Applicable').rule;

function build(details: PlanDetails, variant: CsrVariant): PlanTermsResult {
  const own: VariantCostTerms | undefined = details[COST_TERMS]?.find((v) => v.csr === variant);
  const benefits = new Map(details.benefits.map((b) => [b.name, b]));
  if (benefits.size === 0 || (own && own.benefits.size === 0)) {
    return {
      ok: false,
      code: 'no-benefits',
      reason: 'no Benefits and Cost Sharing PUF rows for this plan variant: its cost sharing is not known',
    };
  }
  const deductibles = limitsOf(details.deductibles, variant);
  const moops = limitsOf(details.moops, variant);
  const stated = (l: Limits) => Object.values(l).some((amounts) => Object.keys(amounts).length > 0);
  if (!stated(deductibles) && !stated(moops)) {
    return {
      ok: false,
      code: 'no-cost-limits',
      reason: 'the plan variant states no deductible and no maximum out of pocket',
    };
  }
  const notes: OopcNote[] = [];
  const noted = new Set<string>();
  const note = (code: OopcNoteCode, benefit: string, message: string) => {
    if (noted.has(`${code}|${benefit}`)) return;
    noted.add(`${code}|${benefit}`);
    notes.push({ code, benefit, message });
  };
  const services = {} as Record<BenefitService, ServiceTerms>;
  for (const service of BENEFIT_SERVICES) {
    const name = SERVICE_BENEFITS[service];
    const benefit = benefits.get(name);
    const row = own?.benefits.get(name);
    if (!benefit || (own && !row)) {
      note(
        'benefit-not-listed',
        name,
        `"${name}" is not listed for this plan variant: priced as not covered`,
      );
      services[service] = NOT_COVERED;
      continue;
    }
    if (!(row?.covered ?? benefit.covered)) {
      services[service] = NOT_COVERED;
      continue;
    }
    const moop = !(row?.excludedFromInnMoop ?? false);
    const sharing = benefit.cost_sharings.find((c) => c.csr === variant && c.network_tier === 'In-Network');
    if (!sharing) {
      note(
        'no-in-network-cost-sharing',
        name,
        `"${name}" states no in-network copay or coinsurance: priced as no charge, as CMS reads "Not Applicable"`,
      );
      services[service] = {
        covered: true,
        rule: { ...NO_CHARGE, moop },
        copay: 0,
        coinsurance: 0,
        copayPer: 'unit',
      };
      continue;
    }
    const { rule, source } = costSharingRule(sharing.copay_options, sharing.coinsurance_options);
    const phrases = `"${sharing.copay_options ?? ''}" / "${sharing.coinsurance_options ?? ''}"`;
    if (source === 'parsed') {
      note('phrase-read', name, `"${name}": ${phrases} is not in CMS's table; read word by word`);
    } else if (source === 'fallback') {
      note(
        'phrase-unknown',
        name,
        `"${name}": ${phrases} is not understood; its stated amounts are charged after the deductible`,
      );
    }
    const copayText = (sharing.copay_options ?? '').toLowerCase();
    services[service] = {
      covered: true,
      rule: { ...rule, moop },
      copay: sharing.copay_amount ?? 0,
      coinsurance: sharing.coinsurance_rate ?? 0,
      copayPer: copayText.includes('per stay') ? 'stay' : copayText.includes('per day') ? 'day' : 'unit',
    };
  }
  const cells = [
    own?.specialtyDrugMaxCoinsurance,
    own?.inpatientCopayMaxDays,
    own?.primaryCareCostSharingAfterVisits,
    own?.primaryCareDeductibleAfterCopays,
  ];
  if (cells.some((c) => c === undefined)) {
    notes.push({
      code: 'plan-cells-not-stored',
      message:
        'the variant was loaded without the Plan Attributes cells for specialty drug, inpatient copay and ' +
        'primary care visit limits (reload the Plan Attributes PUF): priced without them',
    });
  }
  // 0 (or nothing) states no cap and no maximum: a $0 cap or a 0-day copay maximum would void the copay.
  const positive = (value: number | null | undefined) =>
    value !== null && value !== undefined && value > 0 ? value : null;
  const terms: OopcPlanTerms = {
    services,
    deductibles,
    moops,
    specialtyDrugMaxCoinsurance: positive(own?.specialtyDrugMaxCoinsurance),
    inpatientCopayMaxDays: positive(own?.inpatientCopayMaxDays),
    primaryCareFreeVisits: own?.primaryCareCostSharingAfterVisits ?? 0,
    primaryCareCopaysBeforeDeductible: own?.primaryCareDeductibleAfterCopays ?? 0,
  };
  return { ok: true, terms, variant, notes };
}

const kept = perObject<PlanDetails, CsrVariant, PlanTermsResult>(8);

/** The model's reading of a plan in one variant, kept with the plan's details. */
export function planOopcTerms(details: PlanDetails, variant: CsrVariant): PlanTermsResult {
  return kept(details, variant, () => build(details, variant));
}
