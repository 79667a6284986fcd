import type { SampleMarket, SamplePlan } from './market.js';
import type { Variant } from './cost-sharing.js';
import { Random } from '../../shared/random.js';

/**
 * The sample plans' benefits and cost sharing, in the published Benefits and Cost Sharing PUF vocabulary
 * ("$30", "$250 Copay per Stay", "20% Coinsurance after deductible", "No Charge after deductible"): every
 * benefit the out-of-pocket estimate reads, so a zero-setup start shows estimates. Invented like the rest
 * of the sample (labelled sample when loaded), shaped like real plans: visits and generic drugs at a copay,
 * hospital and imaging after the deductible, preventive care free, high-deductible and catastrophic plans
 * through the deductible. Each plan draws from its own random stream, so nothing else of the sample moves.
 */

/** In-network copay and coinsurance cells of one benefit, and whether the plan covers it. */
export interface BenefitCells {
  copay: string;
  coinsurance: string;
  covered: boolean;
}

/** What a plan's design adds to its Plan Attributes row (the cells the estimate reads there). */
export interface PlanBenefitTerms {
  /** `SpecialtyDrugMaximumCoinsurance`: dollars per prescription, or null (empty cell). */
  specialtyCap: number | null;
  /** `InpatientCopaymentMaximumDays` (0: none stated). */
  inpatientMaxDays: number;
  /** `BeginPrimaryCareCostSharingAfterNumberOfVisits`. */
  freeVisits: number;
  /** `BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays`: catastrophic plans' three visits (45 CFR 156.155(a)(3)). */
  copaysBeforeDeductible: number;
}

type Kind =
  | 'primary'
  | 'specialist'
  | 'preventive'
  | 'emergency'
  | 'inpatient'
  | 'professional'
  | 'procedure'
  | 'lab'
  | 'eye'
  | 'generic'
  | 'preferred'
  | 'nonPreferred'
  | 'specialty';

/** The benefits written, by how their cost sharing is shaped (PUF `BenefitName`s, spelled as published). */
export const SAMPLE_BENEFITS: readonly (readonly [string, Kind])[] = [
  ['Primary Care Visit to Treat an Injury or Illness', 'primary'],
  ['Specialist Visit', 'specialist'],
  ['Mental/Behavioral Health Outpatient Services', 'primary'],
  ['Chiropractic Care', 'specialist'],
  ['Outpatient Rehabilitation Services', 'specialist'],
  ['Routine Eye Exam (Adult)', 'eye'],
  ['Preventive Care/Screening/Immunization', 'preventive'],
  ['Emergency Room Services', 'emergency'],
  ['Emergency Transportation/Ambulance', 'procedure'],
  ['Inpatient Hospital Services (e.g., Hospital Stay)', 'inpatient'],
  ['Inpatient Physician and Surgical Services', 'professional'],
  ['Outpatient Facility Fee (e.g.,  Ambulatory Surgery Center)', 'procedure'],
  ['Outpatient Surgery Physician/Surgical Services', 'procedure'],
  ['Imaging (CT/PET Scans, MRIs)', 'procedure'],
  ['X-rays and Diagnostic Imaging', 'lab'],
  ['Laboratory Outpatient and Professional Services', 'lab'],
  ['Durable Medical Equipment', 'procedure'],
  ['Dialysis', 'procedure'],
  ['Chemotherapy', 'procedure'],
  ['Generic Drugs', 'generic'],
  ['Preferred Brand Drugs', 'preferred'],
  ['Non-Preferred Brand Drugs', 'nonPreferred'],
  ['Specialty Drugs', 'specialty'],
];

interface Design {
  terms: PlanBenefitTerms;
  /** Standard-variant copays, dollars. */
  copays: Record<
    'primary' | 'specialist' | 'emergency' | 'inpatient' | 'generic' | 'preferred' | 'nonPreferred',
    number
  >;
  inpatientPer: 'Stay' | 'Day';
  /** Bronze-like: copays only after the deductible, except primary care and generics. */
  lean: boolean;
  coversAdultEyeExams: boolean;
}

const step5 = (dollars: number) => Math.max(5, Math.round(dollars / 5) * 5);

// Standard-variant copays by metal level, dollars (primary care; the others scale from it).
const PRIMARY: Record<string, [number, number]> = {
  Catastrophic: [40, 50],
  'Expanded Bronze': [45, 75],
  Bronze: [45, 75],
  Silver: [25, 45],
  Gold: [15, 30],
  Platinum: [5, 20],
};

function designOf(market: SampleMarket, plan: SamplePlan): Design {
  const random = new Random(market.seed, `benefits:${market.year}:${plan.id}`);
  const metal = plan.spec.metal;
  const primary = step5(random.between(...PRIMARY[metal]!));
  const richer = metal === 'Gold' || metal === 'Platinum';
  const inpatientPer = richer && random.next() < 0.5 ? 'Day' : 'Stay';
  return {
    terms: {
      specialtyCap: random.next() < 0.4 ? random.pick([150, 250, 500]) : null,
      inpatientMaxDays: inpatientPer === 'Day' ? random.pick([3, 5]) : 0,
      freeVisits: metal === 'Silver' || richer ? random.pick([0, 0, 0, 2, 3]) : 0,
      copaysBeforeDeductible: metal === 'Catastrophic' ? 3 : 0,
    },
    copays: {
      primary,
      specialist: step5(primary * random.between(1.6, 2.2)),
      emergency: step5(random.between(250, 600)),
      inpatient: inpatientPer === 'Day' ? step5(random.between(150, 400)) : step5(random.between(250, 1500)),
      generic: step5(random.between(5, 20)),
      preferred: step5(random.between(30, 60)),
      nonPreferred: step5(random.between(70, 120)),
    },
    inpatientPer,
    lean: metal === 'Bronze' || metal === 'Expanded Bronze',
    coversAdultEyeExams: random.next() < 0.5,
  };
}

/** The Plan Attributes cells of a plan's design (the same for all its variants). */
export function planBenefitTerms(market: SampleMarket, plan: SamplePlan): PlanBenefitTerms {
  return designOf(market, plan).terms;
}

/** A silver CSR variant's copays fall with its AV level (45 CFR 156.420). */
const COPAY_FACTOR: Record<string, number> = { '04': 0.8, '05': 0.5, '06': 0.25 };

const free: BenefitCells = { copay: 'No Charge', coinsurance: 'No Charge', covered: true };

/** The in-network cells of every sample benefit for one variant, by benefit name. */
export function variantBenefits(
  market: SampleMarket,
  plan: SamplePlan,
  variant: Variant,
): Map<string, BenefitCells> {
  const design = designOf(market, plan);
  const out = new Map<string, BenefitCells>();
  const zero = variant.suffix === '02';
  const factor = COPAY_FACTOR[variant.suffix] ?? 1;
  const copay = (key: keyof Design['copays']) => `$${step5(design.copays[key] * factor)}`;
  const percent = variant.sharing.coinsurance;
  const afterDeductible: BenefitCells = {
    copay: 'No Charge',
    coinsurance: percent > 0 ? `${percent}% Coinsurance after deductible` : 'No Charge after deductible',
    covered: true,
  };
  // High-deductible and catastrophic plans: everything but preventive care goes through the deductible.
  const throughDeductible = plan.spec.hsa || plan.spec.metal === 'Catastrophic';
  for (const [name, kind] of SAMPLE_BENEFITS) {
    if (kind === 'eye' && !design.coversAdultEyeExams) {
      out.set(name, { copay: 'Not Applicable', coinsurance: 'Not Applicable', covered: false });
      continue;
    }
    if (zero || kind === 'preventive') {
      out.set(name, free);
      continue;
    }
    if (plan.spec.metal === 'Catastrophic' && kind === 'primary') {
      // Three visits at this copay before the deductible (BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays).
      out.set(name, {
        copay: `${copay('primary')} Copay after deductible`,
        coinsurance: 'No Charge after deductible',
        covered: true,
      });
      continue;
    }
    if (throughDeductible) {
      out.set(name, afterDeductible);
      continue;
    }
    const plain = (key: keyof Design['copays'], after = false): BenefitCells => ({
      copay: `${copay(key)}${after ? ' Copay after deductible' : ''}`,
      coinsurance: after ? 'No Charge after deductible' : 'No Charge',
      covered: true,
    });
    switch (kind) {
      case 'primary':
      case 'generic':
        out.set(name, plain(kind));
        break;
      case 'specialist':
      case 'preferred':
        out.set(name, plain(kind, design.lean));
        break;
      case 'eye':
        out.set(name, plain('primary'));
        break;
      case 'emergency':
        out.set(name, design.lean ? afterDeductible : plain('emergency', plan.spec.metal === 'Silver'));
        break;
      case 'nonPreferred':
        out.set(name, plain('nonPreferred', true));
        break;
      case 'inpatient':
        out.set(
          name,
          design.lean || plan.spec.metal === 'Silver'
            ? afterDeductible
            : {
                copay: `${copay('inpatient')} Copay per ${design.inpatientPer}`,
                coinsurance: 'No Charge',
                covered: true,
              },
        );
        break;
      case 'lab':
        out.set(name, design.lean ? afterDeductible : free);
        break;
      default:
        // Procedures, professional fees, specialty drugs: coinsurance after the deductible.
        out.set(name, afterDeductible);
    }
  }
  return out;
}
