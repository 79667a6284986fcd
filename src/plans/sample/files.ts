import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLE_COUNTIES, SAMPLE_STATE, SAMPLE_STATE_FIPS, SAMPLE_ZIP_COUNTIES } from './geography.js';
import { writeSampleCoverage } from './coverage-files.js';
import { writeSamplePrices } from './prices.js';
import { buildSampleMarket, ratesByAge, SAMPLE_MARKET_SEED, type SampleMarket } from './market.js';
import { MEDICAID_COLUMNS, texasMedicaidRows } from './medicaid.js';
import { planAttributesRow } from './plan-attributes-rows.js';
import { SAMPLE_BENEFITS, variantBenefits } from './benefits.js';
import {
  BENEFITS_COLUMNS,
  PLAIN_BENEFIT_CELLS,
  PLAN_ATTRIBUTES_COLUMNS,
  RATE_COLUMNS,
  SERVICE_AREA_COLUMNS,
} from '../tables/puf-columns.js';

/** One written file and the ingest kind that reads it, in the order a load must run them. */
export interface SampleFile {
  kind: string;
  path: string;
  rows: number;
}

type Cells = readonly (string | number)[];

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function writeCsv(path: string, header: readonly string[], rows: Cells[], bom = false): Promise<void> {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  await writeFile(path, `${bom ? '\ufeff' : ''}${lines.join('\r\n')}\r\n`, 'utf8');
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** Census county list layout (`national_county.txt` with its header). */
function countyRows(): Cells[] {
  return SAMPLE_COUNTIES.map((c) => [SAMPLE_STATE, SAMPLE_STATE_FIPS, c.fips.slice(2), c.name, c.classfp]);
}

/** HUD ZIP→County layout (ZIP, COUNTY, USPS_ZIP_PREF_CITY, USPS_ZIP_PREF_STATE, ratios). */
function zipCountyRows(): Cells[] {
  return SAMPLE_ZIP_COUNTIES.map(([zip, fips, city, res, bus, oth, tot]) => [
    zip,
    fips,
    city,
    SAMPLE_STATE,
    res,
    bus,
    oth,
    tot,
  ]);
}

/** PolicyEngine's county rating-area table (`county_fips,state,census_county_name,…`). */
function ratingAreaRows(): Cells[] {
  return SAMPLE_COUNTIES.map((c) => [
    c.fips,
    SAMPLE_STATE,
    c.name,
    `${c.name.toUpperCase().replace(/ /g, '_')}_${SAMPLE_STATE}`,
    c.ratingArea,
    'exact',
  ]);
}

function planAttributesRows(market: SampleMarket): Cells[] {
  return market.plans.flatMap((plan) =>
    plan.variants.map((variant) => {
      const row = planAttributesRow(market, plan, variant);
      return PLAN_ATTRIBUTES_COLUMNS.map((column) => row[column] ?? '');
    }),
  );
}

function serviceAreaRows(market: SampleMarket): Cells[] {
  const importDate = `${market.year - 1}-10-15 00:00:00`;
  return market.issuers.flatMap((issuer) =>
    issuer.serviceAreas.flatMap((area) =>
      area.counties.map((county) => [
        market.year,
        SAMPLE_STATE,
        issuer.spec.id,
        'HIOS',
        importDate,
        area.id,
        area.name,
        'No',
        county.fips,
        county.zips ? 'Yes' : 'No',
        county.zips?.join(', ') ?? '',
        county.zips ? `${issuer.spec.id}_${SAMPLE_STATE}_service_area_partial_county` : '',
        'Individual',
        'No',
      ]),
    ),
  );
}

/** One row per plan × rating area × age band; tobacco-rated issuers fill `IndividualTobaccoRate`. */
function rateRows(market: SampleMarket): Cells[] {
  const importDate = `${market.year - 1}-10-15 00:00:00`;
  const rows: Cells[] = [];
  for (const plan of market.plans) {
    const tobacco = plan.issuer.tobaccoFactor;
    for (const [area, rate21] of plan.rate21) {
      for (const { label, cents } of ratesByAge(rate21)) {
        rows.push([
          market.year,
          SAMPLE_STATE,
          plan.issuer.spec.id,
          'HIOS',
          importDate,
          `${market.year}-01-01`,
          `${market.year}-12-31`,
          plan.id,
          `Rating Area ${area}`,
          tobacco === null ? 'No Preference' : 'Tobacco User/Non-Tobacco User',
          label,
          dollars(cents),
          tobacco === null ? '' : dollars(Math.round(cents * tobacco)),
          ...Array<string>(7).fill(''),
        ]);
      }
    }
  }
  return rows;
}

/**
 * One Benefits and Cost Sharing PUF row per plan variant and benefit (benefits.ts): in-network tier 1
 * cells as designed, out of network "Not Applicable" (PPO plans: 50 % after the deductible).
 */
function benefitRows(market: SampleMarket): Cells[] {
  const importDate = `${market.year - 1}-10-15 00:00:00`;
  const rows: Cells[] = [];
  for (const plan of market.plans) {
    const ppo = plan.spec.type === 'PPO';
    for (const variant of plan.variants) {
      const cells = variantBenefits(market, plan, variant);
      for (const [name, kind] of SAMPLE_BENEFITS) {
        const c = cells.get(name)!;
        const outOfNetwork = ppo && c.covered;
        const row: Record<(typeof BENEFITS_COLUMNS)[number], string | number> = {
          BusinessYear: market.year,
          StateCode: SAMPLE_STATE,
          IssuerId: plan.issuer.spec.id,
          SourceName: 'HIOS',
          ImportDate: importDate,
          StandardComponentId: plan.id,
          PlanId: `${plan.id}-${variant.suffix}`,
          BenefitName: name,
          ...PLAIN_BENEFIT_CELLS,
          CopayInnTier1: c.copay,
          CoinsInnTier1: c.coinsurance,
          CoinsOutofNet: outOfNetwork ? '50% Coinsurance after deductible' : 'Not Applicable',
          // Adult eye exams are not an essential health benefit.
          IsEHB: kind === 'eye' ? 'No' : 'Yes',
          IsCovered: c.covered ? 'Covered' : 'Not Covered',
        };
        rows.push(BENEFITS_COLUMNS.map((column) => row[column]));
      }
    }
  }
  return rows;
}

export interface SampleOptions {
  year: number;
  seed?: number;
}

/**
 * Writes the sample market's files into `dir`, each in the layout of the public file it imitates
 * (Census county list, HUD ZIP→county crosswalk, county rating areas, and the CMS Plan Attributes,
 * Service Area, Rate and Benefits and Cost Sharing PUFs, Medicaid/CHIP limits, and the drug, provider and coverage files: RxNorm
 * RRF, NUCC taxonomy, NPPES, issuers' MR-PUF JSON), and returns them in load order.
 */
export async function writeSampleMarket(dir: string, options: SampleOptions): Promise<SampleFile[]> {
  const market = buildSampleMarket(options.year, options.seed);
  const files: [string, string, readonly string[], Cells[], boolean][] = [
    [
      'counties',
      'national_county_sample.csv',
      ['state', 'statefp', 'countyfp', 'countyname', 'classfp'],
      countyRows(),
      false,
    ],
    [
      'zip-county',
      'ZIP_COUNTY_sample.csv',
      [
        'ZIP',
        'COUNTY',
        'USPS_ZIP_PREF_CITY',
        'USPS_ZIP_PREF_STATE',
        'RES_RATIO',
        'BUS_RATIO',
        'OTH_RATIO',
        'TOT_RATIO',
      ],
      zipCountyRows(),
      false,
    ],
    [
      'rating-areas',
      `county_rating_area_${market.year}_sample.csv`,
      ['county_fips', 'state', 'census_county_name', 'pe_county_key', 'rating_area', 'match'],
      ratingAreaRows(),
      false,
    ],
    ['plan-attributes', 'plan-attributes-puf.csv', PLAN_ATTRIBUTES_COLUMNS, planAttributesRows(market), true],
    ['service-areas', 'service-area-puf.csv', SERVICE_AREA_COLUMNS, serviceAreaRows(market), false],
    ['rates', 'rate-puf.csv', RATE_COLUMNS, rateRows(market), true],
    ['benefits', 'benefits-and-cost-sharing-puf.csv', BENEFITS_COLUMNS, benefitRows(market), true],
    [
      'medicaid',
      'medicaid_chip_income_limits_TX.csv',
      MEDICAID_COLUMNS,
      texasMedicaidRows(market.year),
      false,
    ],
  ];
  const written: SampleFile[] = [];
  for (const [kind, name, header, rows, bom] of files) {
    if (rows.length === 0) continue;
    const path = join(dir, name);
    await writeCsv(path, header, rows, bom);
    written.push({ kind, path, rows: rows.length });
  }
  written.push(...(await writeSampleCoverage(dir, market)));
  written.push(...(await writeSamplePrices(dir, market.year, options.seed ?? SAMPLE_MARKET_SEED)));
  return written;
}
