import { Type, type Static } from 'typebox';
import { literalUnion } from '../input-schemas.js';
import type { MarketPlan } from '../market/county-market.js';
import type { SearchRow } from './search.js';

/** CMS `PlanSearchFilter`: which plans of the market a search keeps. */

const Metal = literalUnion(['Catastrophic', 'Bronze', 'Silver', 'Gold', 'Platinum']);
const PlanType = literalUnion(['Indemnity', 'PPO', 'HMO', 'EPO', 'POS']);
const DesignType = literalUnion(['DESIGN1', 'DESIGN2', 'DESIGN3', 'DESIGN4', 'DESIGN5', 'NOT_APPLICABLE']);
const Range = Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) });

export const PlanSearchFilter = Type.Object({
  division: Type.Optional(Type.Union([Type.Literal('HealthCare'), Type.Literal('Dental')])),
  issuer: Type.Optional(Type.String({ description: 'issuer name' })),
  issuers: Type.Optional(Type.Array(Type.String(), { description: 'issuer names (or 5-digit issuer ids)' })),
  metal_level: Type.Optional(Metal),
  metal_levels: Type.Optional(Type.Array(Metal)),
  metal_design_types: Type.Optional(
    Type.Array(Type.Object({ metal_level: Metal, design_types: Type.Array(DesignType) })),
  ),
  design_types: Type.Optional(Type.Array(DesignType)),
  type: Type.Optional(PlanType),
  types: Type.Optional(Type.Array(PlanType)),
  premium: Type.Optional(Type.Number({ description: 'at most this premium after credit' })),
  deductible: Type.Optional(Type.Number({ description: 'at most this individual deductible' })),
  oopc: Type.Optional(
    Type.Number({
      description:
        'at most this estimated yearly out-of-pocket cost, $; plans without an estimate (-1) fail it; 1003 ' +
        'when a member lacks the age, gender or utilization level the estimate needs',
    }),
  ),
  premium_range: Type.Optional(Range),
  deductible_range: Type.Optional(Range),
  hsa: Type.Optional(Type.Boolean()),
  quality_rating: Type.Optional(Type.Number({ description: 'at least this overall rating' })),
  disease_mgmt_programs: Type.Optional(Type.Array(Type.String())),
  simple_choice: Type.Optional(Type.Boolean()),
  child_dental_coverage: Type.Optional(
    Type.Boolean({
      description:
        'true: only plans whose benefits include dental care for children (Benefits PUF: Dental Check-Up ' +
        'for Children, Basic or Major Dental Care - Child, Orthodontia - Child); not applied, with ' +
        '`data_notes.dental_coverage`, when no plan at the place lists benefits',
    }),
  ),
  adult_dental_coverage: Type.Optional(
    Type.Boolean({
      description:
        'true: only plans whose benefits include dental care for adults (Routine Dental Services (Adult), ' +
        'Basic or Major Dental Care - Adult, Orthodontia - Adult); not applied, with ' +
        '`data_notes.dental_coverage`, when no plan at the place lists benefits',
    }),
  ),
  drugs: Type.Optional(
    Type.Array(Type.String({ pattern: '^[0-9]{1,10}$' }), {
      maxItems: 50,
      description:
        'RxCUIs: only plans that cover each (Covered or GenericCovered); plans carry drug_coverage',
    }),
  ),
  providers: Type.Optional(
    Type.Array(Type.String({ pattern: '^[0-9]{10}$' }), {
      maxItems: 50,
      description: 'NPIs: only plans whose network has each; plans carry provider_coverage',
    }),
  ),
});
export type PlanSearchFilterInput = Static<typeof PlanSearchFilter>;

/**
 * Which plans a search starts from: division (medical by default), catastrophic visibility, suppressions,
 * and the criteria decided per plan before pricing (`also`: drug and provider coverage, dental coverage).
 */
export function candidateTest(
  filter: PlanSearchFilterInput | undefined,
  catastrophic: boolean,
  suppressed: readonly string[] | undefined,
  only?: ReadonlySet<string>,
  also?: (plan: MarketPlan) => boolean,
): (plan: MarketPlan) => boolean {
  const dental = filter?.division === 'Dental';
  const hidden = suppressed && suppressed.length > 0 ? new Set(suppressed) : undefined;
  return (p) =>
    p.dental === dental &&
    (catastrophic || !p.catastrophic) &&
    !hidden?.has(p.id) &&
    (!only || only.has(p.id)) &&
    (!also || also(p));
}

const lower = (s: string) => s.trim().toLowerCase();

function within(value: number | null, range: { min?: number; max?: number } | undefined): boolean {
  if (!range) return true;
  if (value === null) return false;
  return (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
}

/**
 * PlanSearchFilter: every given criterion must hold. Premium criteria are on `premium_w_credit`; a plan
 * without a premium for the household fails them. `issuers` matches issuer names (case-insensitive) or
 * 5-digit issuer ids. `oopc`: at most this yearly estimate; a plan without one fails it. `simple_choice`: no file we load marks simple-choice plans, so `true` matches none.
 */
export function matchesFilter(row: SearchRow, filter: PlanSearchFilterInput | undefined): boolean {
  if (!filter) return true;
  const plan = row.plan;
  const metals: string[] = [
    ...(filter.metal_levels ?? []),
    ...(filter.metal_level ? [filter.metal_level] : []),
  ];
  if (metals.length > 0 && !metals.includes(plan.metalLevel)) return false;
  const types: string[] = [...(filter.types ?? []), ...(filter.type ? [filter.type] : [])];
  if (types.length > 0 && !types.includes(plan.type)) return false;
  const designs: readonly string[] | undefined = filter.design_types;
  if (designs?.length && !designs.includes(plan.designType)) return false;
  if (filter.metal_design_types?.length) {
    const ok = filter.metal_design_types.some(({ metal_level, design_types }) => {
      const designTypes: readonly string[] = design_types;
      return metal_level === plan.metalLevel && designTypes.includes(plan.designType);
    });
    if (!ok) return false;
  }
  const issuers = [...(filter.issuers ?? []), ...(filter.issuer ? [filter.issuer] : [])].map(lower);
  if (issuers.length > 0 && !issuers.includes(lower(plan.issuerName)) && !issuers.includes(plan.issuerId)) {
    return false;
  }
  if (filter.hsa !== undefined && plan.hsaEligible !== filter.hsa) return false;
  if (filter.premium !== undefined && !within(row.premiumWithCredit, { max: filter.premium })) return false;
  if (!within(row.premiumWithCredit, filter.premium_range)) return false;
  if (filter.deductible !== undefined && !within(row.deductible, { max: filter.deductible })) return false;
  if (!within(row.deductible, filter.deductible_range)) return false;
  if (filter.oopc !== undefined && !(row.oopc.computed && row.oopc.oopc <= filter.oopc)) return false;
  if (filter.quality_rating !== undefined && plan.qualityRating < filter.quality_rating) return false;
  if (filter.disease_mgmt_programs?.length) {
    const offered = new Set(plan.details.disease_mgmt_programs);
    if (!filter.disease_mgmt_programs.every((d) => offered.has(d))) return false;
  }
  if (filter.simple_choice === true) return false;
  return true;
}
