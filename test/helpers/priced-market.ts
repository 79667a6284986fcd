import { FEDERAL_AGE_CURVE } from '../../src/plans/sample/age-curve.js';
import { MEDICAID_COLUMNS, texasMedicaidRows } from '../../src/plans/sample/medicaid.js';
import {
  PLAN_ATTRIBUTES_COLUMNS,
  RATE_COLUMNS,
  SERVICE_AREA_COLUMNS,
} from '../../src/plans/tables/puf-columns.js';

/**
 * A small priced market of two fictional issuers in the CMS Exchange PUF layouts (Plan Attributes, Service
 * Area, Rate, QRS), with a county rating-area table and a state's Medicaid/CHIP limits, so the priced
 * endpoints can be tested against premiums worked out by hand. No real issuer or plan is described.
 *
 * Every rate is `base × federal default age factor` (sample/age-curve.ts: 0-14 0.765, 21 1.000, 34 1.214,
 * 40 1.278, 63 2.952, 64 and over 3.000), the base a multiple of $10 so each rate is exact in cents; a
 * tobacco rate is that rate × the plan's tobacco factor, rounded to the cent. Plans, by key (base at 21):
 *
 * | key | issuer | metal | type | base | EHB share | notes |
 * |---|---|---|---|---|---|---|
 * | silverCsr | 99994 | Silver | HMO | 400 | 1.0 | Design 2; CSR variants -04/-05/-06 |
 * | silverEhb | 99994 | Silver | HMO | 440 | 0.9 | CSR variants; lowest-but-one EHB premium |
 * | silverNoCsr | 99994 | Silver | PPO | 430 | 1.0 | only the -01 variant |
 * | silverTobacco | 99994 | Silver | EPO | 390 | 1.0 | tobacco × 1.25; CSR variants |
 * | bronzeHsa | 99994 | Bronze | HMO | 300 | 0.95 | HSA eligible |
 * | bronzeExpanded | 99994 | Expanded Bronze | HMO | 320 | 1.0 | Design 1 |
 * | goldNoAge64 | 99994 | Gold | HMO | 500 | 0.98 | no Rate PUF row for "64 and over" |
 * | goldTobacco | 99994 | Gold | PPO | 520 | 1.0 | tobacco × 1.2 |
 * | catastrophic | 99994 | Catastrophic | HMO | 250 | 1.0 | |
 * | platinum | 99994 | Platinum | HMO | 600 | 1.0 | |
 * | partialBronze | 99995 | Bronze | HMO | 280 | 1.0 | partial county: only the listed ZIPs |
 * | partialGold | 99995 | Gold | HMO | 480 | 1.0 | partial county: only the listed ZIPs |
 *
 * Issuer 99994 serves the whole county; 99995 only the ZIPs of `partialZips`. Issuer ids 99994–99995 are
 * outside the sample market's 99991–99993.
 */

export interface PricedMarketOptions {
  year: number;
  state: string;
  /** The county the issuers serve. */
  county: string;
  ratingArea: number;
  /** ZIPs of the county where issuer 99995's partial-county service area sells. */
  partialZips: readonly string[];
}

/** Hays County, Texas (rating area 3), plan year 2026. */
export const DEFAULT_MARKET: PricedMarketOptions = {
  year: 2026,
  state: 'TX',
  county: '48209',
  ratingArea: 3,
  partialZips: ['78666', '78667'],
};

export const FIXTURE_ISSUERS = {
  main: { id: '99994', name: 'Fixture Health of Texas (test fixture)' },
  partial: { id: '99995', name: 'Lone Star Fixture Care (test fixture)' },
} as const;

type IssuerKey = keyof typeof FIXTURE_ISSUERS;

interface VariantSpec {
  /** `-01` standard, `-04/-05/-06` the 73/87/94 % AV silver variants. */
  suffix: '01' | '04' | '05' | '06';
  deductible: number;
  moop: number;
}

interface PlanSpec {
  issuer: IssuerKey;
  /** Product and plan number after the state: `0010001`. */
  number: string;
  name: string;
  metal: 'Catastrophic' | 'Bronze' | 'Expanded Bronze' | 'Silver' | 'Gold' | 'Platinum';
  type: 'HMO' | 'PPO' | 'EPO';
  design: 'Design 1' | 'Design 2' | 'Not Applicable';
  hsa: boolean;
  ehb: string;
  /** Monthly rate at age 21 (non-tobacco), whole dollars, a multiple of 10. */
  base: number;
  /** Tobacco users pay this × the rate; null = `No Preference` rows. */
  tobaccoFactor: number | null;
  /** Age bands the Rate PUF leaves out for this plan. */
  missingAges: readonly string[];
  variants: readonly VariantSpec[];
}

const standard = (deductible: number, moop: number): VariantSpec[] => [{ suffix: '01', deductible, moop }];
const withCsr = (
  deductibles: [number, number, number, number],
  moops: [number, number, number, number],
): VariantSpec[] =>
  (['01', '04', '05', '06'] as const).map((suffix, i) => ({
    suffix,
    deductible: deductibles[i]!,
    moop: moops[i]!,
  }));

const plan = (spec: Omit<PlanSpec, 'tobaccoFactor' | 'missingAges' | 'hsa' | 'design'> & Partial<PlanSpec>) =>
  ({ tobaccoFactor: null, missingAges: [], hsa: false, design: 'Not Applicable', ...spec }) as PlanSpec;

const SPECS = {
  silverCsr: plan({
    issuer: 'main',
    number: '0010001',
    name: 'Fixture Standard Silver HMO',
    metal: 'Silver',
    type: 'HMO',
    design: 'Design 2',
    ehb: '1.0',
    base: 400,
    variants: withCsr([5000, 3500, 1500, 300], [9200, 7300, 3100, 1200]),
  }),
  silverEhb: plan({
    issuer: 'main',
    number: '0010002',
    name: 'Fixture Silver Plus HMO',
    metal: 'Silver',
    type: 'HMO',
    ehb: '0.9',
    base: 440,
    variants: withCsr([4000, 3000, 1000, 0], [9000, 7000, 3000, 1000]),
  }),
  silverNoCsr: plan({
    issuer: 'main',
    number: '0020003',
    name: 'Fixture Silver PPO',
    metal: 'Silver',
    type: 'PPO',
    ehb: '1.0',
    base: 430,
    variants: standard(4500, 9200),
  }),
  silverTobacco: plan({
    issuer: 'main',
    number: '0030004',
    name: 'Fixture Silver EPO',
    metal: 'Silver',
    type: 'EPO',
    ehb: '1.0',
    base: 390,
    tobaccoFactor: 1.25,
    variants: withCsr([6000, 4000, 2000, 500], [9200, 7300, 3100, 1500]),
  }),
  bronzeHsa: plan({
    issuer: 'main',
    number: '0010005',
    name: 'Fixture Bronze HSA HMO',
    metal: 'Bronze',
    type: 'HMO',
    hsa: true,
    ehb: '0.95',
    base: 300,
    variants: standard(7500, 8000),
  }),
  bronzeExpanded: plan({
    issuer: 'main',
    number: '0010006',
    name: 'Fixture Standard Bronze HMO',
    metal: 'Expanded Bronze',
    type: 'HMO',
    design: 'Design 1',
    ehb: '1.0',
    base: 320,
    variants: standard(7000, 9200),
  }),
  goldNoAge64: plan({
    issuer: 'main',
    number: '0010007',
    name: 'Fixture Gold HMO',
    metal: 'Gold',
    type: 'HMO',
    ehb: '0.98',
    base: 500,
    missingAges: ['64 and over'],
    variants: standard(1500, 6000),
  }),
  goldTobacco: plan({
    issuer: 'main',
    number: '0020008',
    name: 'Fixture Gold PPO',
    metal: 'Gold',
    type: 'PPO',
    ehb: '1.0',
    base: 520,
    tobaccoFactor: 1.2,
    variants: standard(1000, 5000),
  }),
  catastrophic: plan({
    issuer: 'main',
    number: '0010009',
    name: 'Fixture Catastrophic HMO',
    metal: 'Catastrophic',
    type: 'HMO',
    ehb: '1.0',
    base: 250,
    variants: standard(10150, 10150),
  }),
  platinum: plan({
    issuer: 'main',
    number: '0010010',
    name: 'Fixture Platinum HMO',
    metal: 'Platinum',
    type: 'HMO',
    ehb: '1.0',
    base: 600,
    variants: standard(0, 3000),
  }),
  partialBronze: plan({
    issuer: 'partial',
    number: '0010001',
    name: 'Lone Star Fixture Bronze HMO',
    metal: 'Bronze',
    type: 'HMO',
    ehb: '1.0',
    base: 280,
    variants: standard(8000, 9200),
  }),
  partialGold: plan({
    issuer: 'partial',
    number: '0010002',
    name: 'Lone Star Fixture Gold HMO',
    metal: 'Gold',
    type: 'HMO',
    ehb: '1.0',
    base: 480,
    variants: standard(2000, 7000),
  }),
} satisfies Record<string, PlanSpec>;

export type FixturePlanKey = keyof typeof SPECS;

/** The fixture's plan ids in a state (`99994TX0010001`, …), by key. */
export function fixturePlanIds(state = DEFAULT_MARKET.state): Record<FixturePlanKey, string> {
  return Object.fromEntries(
    Object.entries(SPECS).map(([key, spec]) => [key, planIdOf(spec, state)]),
  ) as Record<FixturePlanKey, string>;
}

/** The fixture's plan names, by key. */
export const FIXTURE_PLAN_NAMES = Object.fromEntries(
  Object.entries(SPECS).map(([key, spec]) => [key, spec.name]),
) as Record<FixturePlanKey, string>;

function planIdOf(spec: PlanSpec, state: string): string {
  return `${FIXTURE_ISSUERS[spec.issuer].id}${state}${spec.number}`;
}

type Row = Record<string, string>;

/** A row with every column of `columns` in file order, empty unless `cells` fills it. */
function layoutRow(columns: readonly string[], cells: Row): Row {
  const unknown = Object.keys(cells).filter((c) => !columns.includes(c));
  if (unknown.length > 0) throw new Error(`not columns of the layout: ${unknown.join(', ')}`);
  return Object.fromEntries(columns.map((c) => [c, cells[c] ?? '']));
}

const money = (dollars: number) => `$${dollars.toLocaleString('en-US')}`;
const cents = (value: number) => (value / 100).toFixed(2);

const CSR_TYPES: Record<VariantSpec['suffix'], (metal: string) => string> = {
  '01': (metal) => `Standard ${metal} On Exchange Plan`,
  '04': () => '73% AV Level Silver Plan',
  '05': () => '87% AV Level Silver Plan',
  '06': () => '94% AV Level Silver Plan',
};

/** The deductible and MOOP cells of one variant: in-network tier 1, and out of network or combined. */
function limitCells(spec: PlanSpec, variant: VariantSpec): Row {
  const cells: Row = {};
  const fill = (prefix: string, suffix: string, tier: string, amount: number | null) => {
    const na = amount === null;
    cells[`${prefix}${tier}Individual${suffix}`] = na ? 'Not Applicable' : money(amount);
    cells[`${prefix}${tier}FamilyPerPerson${suffix}`] = na
      ? 'per person not applicable'
      : `$${amount} per person`;
    cells[`${prefix}${tier}FamilyPerGroup${suffix}`] = na
      ? 'per group not applicable'
      : `$${amount * 2} per group`;
  };
  const ppo = spec.type === 'PPO';
  for (const [prefix, suffix, amount] of [
    ['TEHBDed', '', variant.deductible],
    ['TEHB', 'MOOP', variant.moop],
  ] as const) {
    fill(prefix, suffix, 'InnTier1', amount);
    fill(prefix, suffix, 'OutOfNet', ppo ? amount * 2 : null);
    fill(prefix, suffix, 'CombInnOon', ppo ? null : amount);
  }
  cells.TEHBDedInnTier1Coinsurance = '20.00%';
  return cells;
}

/** Plan Attributes PUF rows (PY2025 layout, all 151 columns): one per plan variant. */
export function planAttributesRows(options: PricedMarketOptions = DEFAULT_MARKET): Row[] {
  const { year, state } = options;
  return Object.values(SPECS).flatMap((spec) => {
    const issuer = FIXTURE_ISSUERS[spec.issuer];
    const id = planIdOf(spec, state);
    const site = `https://fixture-${issuer.id}.example.org`;
    return spec.variants.map((variant) =>
      layoutRow(PLAN_ATTRIBUTES_COLUMNS, {
        BusinessYear: String(year),
        StateCode: state,
        IssuerId: issuer.id,
        IssuerMarketPlaceMarketingName: issuer.name,
        SourceName: 'HIOS',
        ImportDate: `${year - 1}-10-15 00:00:00`,
        MarketCoverage: 'Individual',
        DentalOnlyPlan: 'No',
        StandardComponentId: id,
        PlanMarketingName: spec.name,
        HIOSProductId: id.slice(0, 10),
        NetworkId: `${state}N001`,
        ServiceAreaId: `${state}S001`,
        FormularyId: `${state}F001`,
        IsNewPlan: 'New',
        PlanType: spec.type,
        MetalLevel: spec.metal,
        DesignType: spec.design,
        UniquePlanDesign: spec.design === 'Not Applicable' ? 'Yes' : 'No',
        QHPNonQHPTypeId: 'Both',
        IsNoticeRequiredForPregnancy: 'No',
        IsReferralRequiredForSpecialist: spec.type === 'HMO' ? 'Yes' : 'No',
        ChildOnlyOffering: 'Allows Adult and Child-Only',
        WellnessProgramOffered: 'No',
        DiseaseManagementProgramsOffered: 'Asthma, Diabetes',
        EHBPercentTotalPremium: spec.ehb,
        PlanEffectiveDate: `${year}-01-01`,
        PlanExpirationDate: `${year}-12-31`,
        NationalNetwork: 'No',
        FormularyURL: `${site}/formulary.pdf`,
        PlanId: `${id}-${variant.suffix}`,
        PlanVariantMarketingName: spec.name,
        CSRVariationType: CSR_TYPES[variant.suffix](spec.metal),
        MedicalDrugDeductiblesIntegrated: 'Yes',
        MedicalDrugMaximumOutofPocketIntegrated: 'Yes',
        MultipleInNetworkTiers: 'No',
        ...limitCells(spec, variant),
        // A CSR variant's deductible is no high-deductible health plan's.
        IsHSAEligible: spec.hsa && variant.suffix === '01' ? 'Yes' : 'No',
        URLForSummaryofBenefitsCoverage: `${site}/sbc/${id}-${variant.suffix}.pdf`,
        PlanBrochure: `${site}/brochure.pdf`,
      }),
    );
  });
}

/** Service Area PUF rows: 99994 the whole county, 99995 a partial county with its ZIP list. */
export function serviceAreaRows(options: PricedMarketOptions = DEFAULT_MARKET): Row[] {
  const { year, state, county, partialZips } = options;
  const row = (issuer: IssuerKey, partial: boolean) =>
    layoutRow(SERVICE_AREA_COLUMNS, {
      BusinessYear: String(year),
      StateCode: state,
      IssuerId: FIXTURE_ISSUERS[issuer].id,
      SourceName: 'HIOS',
      ImportDate: `${year - 1}-10-15 00:00:00`,
      ServiceAreaId: `${state}S001`,
      ServiceAreaName: `${FIXTURE_ISSUERS[issuer].name} service area`,
      CoverEntireState: 'No',
      County: county,
      PartialCounty: partial ? 'Yes' : 'No',
      ZipCodes: partial ? partialZips.join(', ') : '',
      PartialCountyJustification: partial ? 'Network adequacy: providers in these ZIP codes only' : '',
      MarketCoverage: 'Individual',
      DentalOnlyPlan: 'No',
    });
  return [row('main', false), row('partial', true)];
}

/** A plan's monthly rates in cents by Rate PUF age band (non-tobacco, tobacco or null). */
export function fixtureRates(key: FixturePlanKey): Map<string, { rate: number; tobacco: number | null }> {
  const spec: PlanSpec = SPECS[key];
  const rates = new Map<string, { rate: number; tobacco: number | null }>();
  for (const { label, factor } of FEDERAL_AGE_CURVE) {
    if (spec.missingAges.includes(label)) continue;
    const rate = Math.round(spec.base * 100 * factor);
    const tobacco = spec.tobaccoFactor === null ? null : Math.round(rate * spec.tobaccoFactor);
    rates.set(label, { rate, tobacco });
  }
  return rates;
}

/** Rate PUF rows (PY2018+ layout): every age band of every plan in the rating area, but the missing ones. */
export function rateRows(options: PricedMarketOptions = DEFAULT_MARKET): Row[] {
  const { year, state, ratingArea } = options;
  return (Object.keys(SPECS) as FixturePlanKey[]).flatMap((key) => {
    const spec: PlanSpec = SPECS[key];
    return [...fixtureRates(key)].map(([age, { rate, tobacco }]) =>
      layoutRow(RATE_COLUMNS, {
        BusinessYear: String(year),
        StateCode: state,
        IssuerId: FIXTURE_ISSUERS[spec.issuer].id,
        SourceName: 'HIOS',
        ImportDate: `${year - 1}-10-15 00:00:00`,
        RateEffectiveDate: `${year}-01-01`,
        RateExpirationDate: `${year}-12-31`,
        PlanId: planIdOf(spec, state),
        RatingAreaId: `Rating Area ${ratingArea}`,
        Tobacco: tobacco === null ? 'No Preference' : 'Tobacco User/Non-Tobacco User',
        Age: age,
        IndividualRate: cents(rate),
        IndividualTobaccoRate: tobacco === null ? '' : cents(tobacco),
      }),
    );
  });
}

/** Quality Rating System PUF rows: silverEhb 5 stars, silverCsr 4, bronzeHsa 3, goldTobacco not rated. */
export function qualityRows(options: PricedMarketOptions = DEFAULT_MARKET): Row[] {
  const ids = fixturePlanIds(options.state);
  const row = (key: FixturePlanKey, overall: string) => ({
    IssuerID: ids[key].slice(0, 5),
    State: options.state,
    PlanID: ids[key],
    OverallRatingValue: overall,
    MedicalCareRatingValue: overall,
    MemberExperienceRatingValue: overall,
    PlanAdministrationRatingValue: overall,
  });
  return [
    row('silverEhb', '5'),
    row('silverCsr', '4'),
    row('bronzeHsa', '3'),
    row('goldTobacco', 'NR - New-Ineligible for Scoring'),
  ];
}

/** A county rating area in PolicyEngine's county table layout. */
export interface CountyArea {
  fips: string;
  state: string;
  name: string;
  area: number;
}

/** Rows of `county_rating_area_<year>_policyengine.csv` layout. */
export function ratingAreaRows(areas: readonly CountyArea[]): Row[] {
  return areas.map((a) => ({
    county_fips: a.fips,
    state: a.state,
    census_county_name: a.name,
    pe_county_key: `${a.name.toUpperCase().replace(/ /g, '_')}_${a.state}`,
    rating_area: String(a.area),
    match: 'exact',
  }));
}

/** Texas's published Medicaid/CHIP limits for `year` (sample/medicaid.ts) in the medicaid file layout. */
export function texasMedicaidFixtureRows(year: number): Row[] {
  return texasMedicaidRows(year).map((cells) =>
    Object.fromEntries(MEDICAID_COLUMNS.map((c, i) => [c, String(cells[i] ?? '')])),
  );
}

/**
 * The counties the fixture gives rating areas, each as PolicyEngine-US's county table has it
 * (`policyengine_us/parameters/gov/hhs/medicaid/geography/aca_rating_areas.csv`): Hays,
 * where the plans are sold; Travis, same area, where none is (1016);
 * Oklahoma County, a HealthCare.gov state without Medicaid/CHIP limits in the fixture (1015). Comal
 * County (48091) is left out on purpose: no rating area can be determined there (1017).
 */
export const FIXTURE_AREAS: readonly CountyArea[] = [
  { fips: '48209', state: 'TX', name: 'Hays County', area: 3 },
  { fips: '48453', state: 'TX', name: 'Travis County', area: 3 },
  { fips: '40109', state: 'OK', name: 'Oklahoma County', area: 3 },
];

/** What loads the fixture: `csv` writes a file, `load` ingests it (test/plans/plan-api.ts `PlanApi`). */
export interface FixtureLoader {
  csv(name: string, rows: Record<string, string>[]): string;
  loadFixture(kind: string, file: string, year?: number): Promise<void>;
}

/**
 * Loads the whole fixture through the real ingest formats: rating areas (`areas`), Medicaid/CHIP limits
 * of Texas, then the Plan Attributes, Service Area, Rate and QRS PUF rows.
 */
export async function loadPricedMarket(
  api: FixtureLoader,
  areas: readonly CountyArea[] = FIXTURE_AREAS,
  options: PricedMarketOptions = DEFAULT_MARKET,
): Promise<void> {
  const { year } = options;
  await api.loadFixture(
    'rating-areas',
    api.csv(`county_rating_area_${year}.csv`, ratingAreaRows(areas)),
    year,
  );
  await api.loadFixture(
    'medicaid',
    api.csv('medicaid_chip_income_limits.csv', texasMedicaidFixtureRows(year)),
  );
  await api.loadFixture('plan-attributes', api.csv('plan-attributes-puf.csv', planAttributesRows(options)));
  await api.loadFixture('service-areas', api.csv('service-area-puf.csv', serviceAreaRows(options)));
  await api.loadFixture('rates', api.csv('rate-puf.csv', rateRows(options)));
  await api.loadFixture('quality', api.csv('qrs-puf.csv', qualityRows(options)), year);
}

/** POSTs `body` (JSON text, as `application/json` unless `contentType` says otherwise) to `/api/v1{path}`. */
export function postJson(
  baseUrl: string,
  apiKey: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<Response> {
  const url = new URL(`/api/v1${path}`, baseUrl);
  url.searchParams.set('apikey', apiKey);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
