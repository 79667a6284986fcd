import type { CsrVariant, FamilyCost } from '../../plans/store/plan-detail.js';

/**
 * Column names of the CMS QHP Landscape files (individual market, medical), normalised by
 * `normaliseHeader`. Spellings seen in the real files (data.healthcare.gov, PY2014–2017):
 * 2014 `Plan ID - Standard Component`, `State`, `County` (upper-case names, no FIPS);
 * 2015 `Plan ID (standard component)`; 2016 `State Code`, `County Name`, `EHB Percent of Total Premium`,
 * family-per-person deductibles; 2017 snake_case with `fips_county_code` and `hios_issuer_id`.
 * Header cells carry stray spaces and line breaks (`"Couple+1 child\n Age 21"`), hence normalisation.
 */
export const COLUMN = {
  planId: ['plan id standard component'],
  state: ['state code', 'state'],
  fips: ['fips county code'],
  county: ['county name', 'county'],
  metal: ['metal level'],
  issuerName: ['issuer name'],
  issuerId: ['hios issuer id'],
  planName: ['plan marketing name'],
  planType: ['plan type'],
  ratingArea: ['rating area'],
  childOnly: ['child only offering'],
  tollFree: ['customer service phone number toll free'],
  tty: ['customer service phone number tty'],
  networkUrl: ['network url'],
  brochureUrl: ['plan brochure url'],
  sbcUrl: ['summary of benefits url'],
  formularyUrl: ['drug formulary url'],
  ehb: ['ehb percent of total premium'],
} as const;

/** Column groups a landscape file must have (one name of each). */
export const REQUIRED = [
  COLUMN.planId,
  COLUMN.state,
  [...COLUMN.fips, ...COLUMN.county],
  COLUMN.metal,
  COLUMN.issuerName,
  COLUMN.planName,
  COLUMN.planType,
  COLUMN.ratingArea,
] as const;

/** A premium column: its key in `plan_counties.premiums` and the normalised header names it has had. */
export interface PremiumColumn {
  key: string;
  names: string[];
}

const AGES = [21, 27, 30, 40, 50, 60];

/** Family tiers as the files name them (`Premium Couple 40`, `Couple+3 or more Children, Age 40`). */
const TIERS: [stem: string, header: string][] = [
  ['couple', 'couple'],
  ['couple_1_child', 'couple 1 child age'],
  ['couple_2_children', 'couple 2 children age'],
  ['couple_3_children', 'couple 3 or more children age'],
  ['individual_1_child', 'individual 1 child age'],
  ['individual_2_children', 'individual 2 children age'],
  ['individual_3_children', 'individual 3 or more children age'],
];

/**
 * Every premium column a landscape year has published, in a fixed order so `premiums` JSON keys are
 * stable: the child rate (split into ages 0–14 and 18 by later years, whose age curve rates 0–14 as one
 * band), single adults by age, then family tiers by the age of the adult(s). Columns a year lacks are
 * left out of the JSON.
 */
export const PREMIUM_COLUMNS: PremiumColumn[] = [
  { key: 'child', names: ['premium child'] },
  { key: 'child_0_14', names: ['premium child age 0 14'] },
  { key: 'child_18', names: ['premium child age 18'] },
  ...AGES.map((age) => ({ key: `adult_${age}`, names: [`premium adult individual age ${age}`] })),
  ...TIERS.flatMap(([stem, header]) =>
    AGES.map((age) => ({ key: `${stem}_${age}`, names: [`${header} ${age}`, `premium ${header} ${age}`] })),
  ),
];

/** A CSR variant the landscape publishes cost sharing for, with its HIOS variant suffix. */
export interface LandscapeVariant {
  suffix: string;
  /** How the column names end (`… - 73 Percent`). */
  column: string;
  csr: CsrVariant;
}

// HIOS variant suffixes (CMS Plan Attributes PUF data dictionary): -01 on-exchange standard plan,
// -04/-05/-06 the 73/87/94 % AV silver CSR variants.
export const VARIANTS: LandscapeVariant[] = [
  { suffix: '01', column: 'standard', csr: 'Exchange variant (no CSR)' },
  {
    suffix: '04',
    column: '73 percent',
    csr: '73% AV Level Silver Plan CSR',
  },
  {
    suffix: '05',
    column: '87 percent',
    csr: '87% AV Level Silver Plan CSR',
  },
  {
    suffix: '06',
    column: '94 percent',
    csr: '94% AV Level Silver Plan CSR',
  },
];

/** One deductible or MOOP cell of a variant: its header stem and the API's names for it. */
export interface CostColumn {
  /** `medical deductible individual` — the variant's column name is `${stem} ${variant.column}`. */
  stem: string;
  limit: 'deductibles' | 'moops';
  type: string;
  familyCost: FamilyCost;
}

// API types (Marketplace API Deductible/MOOP `type`): the landscape splits medical and drug; a drug cell
// "Included in Medical" is kept as text, the medical amount then covers both.
const TYPES = [
  ['medical deductible', 'deductibles', 'Medical EHB Deductible'],
  ['drug deductible', 'deductibles', 'Drug EHB Deductible'],
  ['medical maximum out of pocket', 'moops', 'Maximum Out of Pocket for Medical EHB Benefits'],
  ['drug maximum out of pocket', 'moops', 'Maximum Out of Pocket for Drug EHB Benefits'],
] as const;

// 2014–2015 publish individual and family amounts; from 2016 also "Family (Per Person)".
const FAMILY: [header: string, cost: FamilyCost][] = [
  ['individual', 'Individual'],
  ['family', 'Family'],
  ['family per person', 'Family Per Person'],
];

export const COST_COLUMNS: CostColumn[] = TYPES.flatMap(([stem, limit, type]) =>
  FAMILY.map(([family, familyCost]) => ({ stem: `${stem} ${family}`, limit, type, familyCost })),
);

/** Metal levels and plan types as the API names them (lower-case spelling → API spelling). */
export const METAL_LEVELS = new Map(
  ['Bronze', 'Expanded Bronze', 'Silver', 'Gold', 'Platinum', 'Catastrophic'].map((m) => [
    m.toLowerCase(),
    m,
  ]),
);
export const PLAN_TYPES = new Map(['HMO', 'PPO', 'EPO', 'POS', 'Indemnity'].map((t) => [t.toLowerCase(), t]));
