import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { csvText } from '../helpers/csv-fixture.js';
import { benefitRow } from '../helpers/fictional-issuer.js';
import { startService, type RunningService } from '../helpers/service.js';
import { ingest, sharedData } from '../helpers/shared-data.js';

/** The sandbox's well-known key (the public test key of the CMS API document). */
export const SANDBOX_KEY = 'd687412e7b53146b2631dc01974ad0a4';

/** A load of real files from `../shared/data` (paths relative to it), as `openenroll ingest` runs it. */
export interface Load {
  kind: string;
  files: string[];
  year?: number;
}

/** The real files the suites load, by what they are. */
export const REAL = {
  counties: {
    kind: 'counties',
    files: ['geo/census_2010_national_county_fips.csv', 'geo/county_fips_changes_since_2010.csv'],
  },
  zipCounty: { kind: 'zip-county', files: ['geo/ZIP_COUNTY_032023.csv'] },
  ratingAreas2025: {
    kind: 'rating-areas',
    files: [
      'premiums/policyengine_derived/county_rating_area_2025_policyengine.csv',
      'premiums/policyengine_derived/ca_los_angeles_zip3_rating_area.csv',
    ],
    year: 2025,
  },
  /** The 2014 rating-area tables (hrecht, from the CMS state GRA pages): counties, and Idaho's 3-digit ZIPs. */
  ratingAreas2014: {
    kind: 'rating-areas',
    files: [
      'reference_tables/rating_areas_2014_hrecht_CountyRAs.csv',
      'reference_tables/rating_areas_2014_hrecht_ZipCodeRAs.csv',
    ],
    year: 2014,
  },
  medicaid: { kind: 'medicaid', files: ['medicaid/medicaid_chip_income_limits_pct_fpl.csv'] },
  planAttributes2025: { kind: 'plan-attributes', files: ['marketplace_puf/2025/plan-attributes-puf.zip'] },
  landscapeIdaho2014: {
    kind: 'landscape',
    files: ['premiums/qhp_landscape_2014_2017/2014_QHP_Landscape_ID_Individual_Market_Medical.csv'],
  },
  businessRules2014: {
    kind: 'business-rules',
    files: ['marketplace_puf/legacy_2014/Business_Rules_PUF_2014.csv'],
  },
} satisfies Record<string, Load>;

/** Every shared file a list of loads reads (for `skipWithoutSharedData`). */
export function filesOf(...loads: Load[]): string[] {
  return loads.flatMap((l) => l.files);
}

export interface PlanApi {
  readonly running: RunningService;
  /** GET `/api/v1{path}` with the sandbox key (unless `key` is given; '' sends none). */
  get(path: string, key?: string): Promise<Response>;
  /** GET and parse a 200 answer. */
  json<T = Record<string, unknown>>(path: string): Promise<T>;
  /** Writes a fixture CSV (header = the rows' keys) to the suite's temp dir; returns its path. */
  csv(name: string, rows: Record<string, string>[]): string;
  /** Loads a fixture file written with `csv`. */
  loadFixture(kind: string, file: string, year?: number): Promise<void>;
}

/**
 * One running service for a suite (no generated sample market), with real files loaded through the
 * ingest formats before the tests run.
 */
export function planApiSuite(loads: Load[]): PlanApi {
  let running: RunningService | undefined;
  let dir = '';
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false' });
    dir = mkdtempSync(join(tmpdir(), 'plan-api-'));
    for (const load of loads) {
      const summary = await ingest(
        running.service.storage,
        load.kind,
        load.files.map((f) => sharedData(f)),
        load.year === undefined ? {} : { year: load.year },
      );
      assert.equal(summary.rejectedCount, 0, `${load.kind}: ${JSON.stringify(summary.rejected.slice(0, 3))}`);
    }
    running.service.plans.samples.refresh();
  });
  after(async () => {
    await running?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const api: PlanApi = {
    get running() {
      assert.ok(running, 'the suite has not started');
      return running;
    },
    get(path, key = SANDBOX_KEY) {
      const url = new URL(`/api/v1${path}`, api.running.url);
      if (key !== '') url.searchParams.set('apikey', key);
      return fetch(url);
    },
    async json<T>(path: string) {
      const response = await api.get(path);
      const text = await response.text();
      assert.equal(response.status, 200, `${path}: ${text}`);
      return JSON.parse(text) as T;
    },
    csv(name, rows) {
      const path = join(dir, name);
      writeFileSync(path, csvText(rows));
      return path;
    },
    async loadFixture(kind, file, year) {
      const summary = await ingest(
        api.running.service.storage,
        kind,
        [file],
        year === undefined ? {} : { year },
      );
      assert.equal(summary.rejectedCount, 0, `${kind}: ${JSON.stringify(summary.rejected.slice(0, 3))}`);
      api.running.service.plans.samples.refresh();
    },
  };
  return api;
}

/** The plan API's error body, exactly. */
export async function assertPlanError(
  response: Response,
  expected: { code: string; status: string; message: string; error: string },
): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, Number(expected.status), text);
  assert.deepEqual(JSON.parse(text), expected);
}

/**
 * A Plan Attributes PUF row of the fictional plan 99999TX0010001 (issuer 99999) for `year`: its standard
 * silver variant (-01) or its 94% CSR variant (-06).
 */
export function fictionalPlanRow(year: number, suffix: '01' | '06'): Record<string, string> {
  return {
    BusinessYear: String(year),
    StateCode: 'TX',
    IssuerId: '99999',
    IssuerMarketPlaceMarketingName: 'Fixture Health of Texas',
    MarketCoverage: 'Individual',
    DentalOnlyPlan: 'No',
    StandardComponentId: '99999TX0010001',
    PlanMarketingName: 'Fixture Silver',
    NetworkId: 'TXN001',
    ServiceAreaId: 'TXS001',
    PlanType: 'HMO',
    MetalLevel: 'Silver',
    DesignType: 'Design 2',
    PlanId: `99999TX0010001-${suffix}`,
    CSRVariationType: suffix === '01' ? 'Standard Silver On Exchange Plan' : '94% AV Level Silver Plan',
    IsHSAEligible: 'No',
    TEHBDedInnTier1Individual: suffix === '01' ? '$4,500' : '$0',
    TEHBInnTier1IndividualMOOP: suffix === '01' ? '$9,200' : '$2,000',
  };
}

/**
 * A fictional plan (issuer 99999, plan year 2031) in the Plan Attributes, Benefits and Cost Sharing and
 * QRS PUF layouts, for what ../shared/data has no real file of (benefits, quality ratings): a standard
 * silver variant (-01) and its 94% CSR variant (-06). Loaded through the real ingest formats.
 */
export async function loadFictionalPlan(api: PlanApi): Promise<void> {
  await api.loadFixture(
    'plan-attributes',
    api.csv('plan-attributes.csv', [fictionalPlanRow(2031, '01'), fictionalPlanRow(2031, '06')]),
  );
  const benefit = (suffix: '01' | '06', copay: string) =>
    benefitRow('Primary Care Visit to Treat an Injury or Illness', {
      PlanId: `99999TX0010001-${suffix}`,
      CopayInnTier1: copay,
      CoinsInnTier1: '0%',
      CoinsOutofNet: '50% Coinsurance after deductible',
    });
  await api.loadFixture('benefits', api.csv('benefits.csv', [benefit('01', '$30'), benefit('06', '$5')]));
  const rating = {
    IssuerID: '99999',
    State: 'TX',
    PlanID: '99999TX0010001',
    OverallRatingValue: '4',
    MedicalCareRatingValue: 'NR - New-Ineligible for Scoring',
    MemberExperienceRatingValue: '3',
    PlanAdministrationRatingValue: '5',
  };
  await api.loadFixture('quality', api.csv('qrs.csv', [rating]), 2031);
}
