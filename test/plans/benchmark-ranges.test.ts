import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { SAMPLE_HEADER } from '../../src/plans/gateway/sample-data.js';
import { writeSampleMarket } from '../../src/plans/sample/files.js';
import { SAMPLE_COUNTIES } from '../../src/plans/sample/geography.js';
import { startService, type RunningService } from '../helpers/service.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';
import { SANDBOX_KEY } from './plan-api.js';

// Range checks against the benchmark (SLCSP) premiums PolicyEngine-US publishes per state × rating area
// for 2018–2026 (premiums/policyengine_derived/, facts from KFF and CMS; see PROVENANCE.md there). We hold
// no real Rate PUF of those years, so nothing can be compared to the cent: the checks are
//   1. the PolicyEngine file itself parses and its numbers are plausible, and its derived age-40 column
//      is what its documented basis says (age-0 value × the state's age-40 / age-0 factor);
//   2. the project's generated SAMPLE market (src/plans/sample, invented issuers and premiums on three
//      real Texas counties) gives, through /households/slcsp, benchmark premiums within a plausible band
//      of the real ones for the same Texas rating area and year. It guards the generator against
//      implausible premiums (cents for dollars, yearly for monthly, an age factor applied twice), not
//      against being a few percent off: sample premiums are not real and are labelled so.

const PE = 'premiums/policyengine_derived';
const SLCSP_FILE = `${PE}/slcsp_by_state_rating_area_2018_2026.csv`;
const LCBP_FILE = `${PE}/lcbp_by_state_rating_area_2026.csv`;
const CURVES_FILE = 'reference_tables/age_rating_curves.csv';
const KFF_FILE = 'premiums/reference_benchmarks/kff_avg_benchmark_premium_age40_by_state_2025.csv';
const COUNTY_FILE = `${PE}/county_rating_area_2025_policyengine.csv`;
const skip = skipWithoutSharedData(SLCSP_FILE, LCBP_FILE, CURVES_FILE, KFF_FILE, COUNTY_FILE);

type Cells = Record<string, string>;

function csv(relative: string): { header: string[]; rows: Cells[] } {
  let header: string[] = [];
  const rows = parse(readFileSync(sharedData(relative), 'utf8'), {
    bom: true,
    columns: (names: string[]) => (header = names),
    skip_empty_lines: true,
  }) as Cells[];
  return { header, rows };
}

/** A whole-dollar amount as the PolicyEngine files write it ("281.00"), in dollars. */
function wholeDollars(text: string, where: string): number {
  assert.match(text, /^\d{2,4}\.00$/, `${where}: "${text}" is not whole dollars`);
  return Number(text);
}

/** The 51 jurisdictions of the file (50 states and DC). */
const JURISDICTIONS = new Set(
  'AK AL AR AZ CA CO CT DC DE FL GA HI IA ID IL IN KS KY LA MA MD ME MI MN MO MS MT NC ND NE NH NJ NM NV NY OH OK OR PA RI SC SD TN TX UT VA VT WA WI WV WY'.split(
    ' ',
  ),
);
/** States that rate by family tier, not age: their age-0 value is the adult base rate (PROVENANCE). */
const COMMUNITY_RATED = new Set(['NY', 'VT']);
/** States with a curve of their own in 2018 (CMS "State Specific Age Curve Variations"). */
const STATE_CURVES = new Set(['AL', 'DC', 'MA', 'MN', 'MS', 'OR', 'UT']);

interface Benchmark {
  year: number;
  state: string;
  area: number;
  age0: number;
  age40: number | null;
}

function readBenchmarks(relative: string, column: 'slcsp' | 'lcbp'): Benchmark[] {
  const { header, rows } = csv(relative);
  assert.deepEqual(header, [
    'plan_year',
    'state',
    'rating_area',
    `${column}_age0_monthly`,
    `${column}_age40_derived_monthly`,
  ]);
  return rows.map((row, i) => {
    const where = `${relative} row ${i + 2}`;
    assert.match(row.plan_year!, /^20(1[89]|2[0-6])$/, where);
    assert.ok(JURISDICTIONS.has(row.state!), `${where}: ${row.state}`);
    assert.match(row.rating_area!, /^[1-9]\d?$/, where);
    const age40 = row[`${column}_age40_derived_monthly`]!;
    if (COMMUNITY_RATED.has(row.state!)) assert.equal(age40, '', `${where}: no age curve in ${row.state}`);
    else assert.match(age40, /^\d{3,4}\.\d{2}$/, where);
    return {
      year: Number(row.plan_year),
      state: row.state!,
      area: Number(row.rating_area),
      age0: wholeDollars(row[`${column}_age0_monthly`]!, where),
      age40: age40 === '' ? null : Number(age40),
    };
  });
}

describe(
  'PolicyEngine SLCSP and LCBP per state × rating area (2018–2026): the file and its basis',
  { skip },
  () => {
    const slcsp = () => readBenchmarks(SLCSP_FILE, 'slcsp');

    test('every row parses: 498 rating areas of 51 jurisdictions in each of the nine years, each once', () => {
      const rows = slcsp();
      assert.equal(rows.length, 4482);
      const keys = new Set(rows.map((r) => `${r.year}|${r.state}|${r.area}`));
      assert.equal(keys.size, rows.length, 'no (year, state, area) twice');
      for (let year = 2018; year <= 2026; year++) {
        const ofYear = rows.filter((r) => r.year === year);
        assert.equal(ofYear.length, 498, `${year}`);
        assert.equal(new Set(ofYear.map((r) => r.state)).size, 51, `${year}`);
      }
      // Areas of a state are numbered 1..n (CMS numbering; Florida has the most, 67), but three areas of
      // PolicyEngine's own county table have no benchmark row in any year: Florida 22 (Gulf County) and
      // South Carolina 9 (Calhoun) and 19 (Edgefield). A county → area → benchmark join finds nothing there.
      const missing: Record<string, number[]> = { FL: [22], SC: [9, 19] };
      const areas = new Map<string, number[]>();
      for (const r of rows.filter((r) => r.year === 2026)) {
        areas.set(r.state, [...(areas.get(r.state) ?? []), r.area]);
      }
      for (const [state, list] of areas) {
        const top = Math.max(...list);
        const expected = Array.from({ length: top }, (_, i) => i + 1).filter(
          (area) => !(missing[state] ?? []).includes(area),
        );
        assert.deepEqual(
          list.sort((a, b) => a - b),
          expected,
          state,
        );
      }
      const counties = csv(COUNTY_FILE).rows;
      for (const [state, list] of Object.entries(missing)) {
        for (const area of list) {
          assert.ok(
            counties.some((c) => c.state === state && c.rating_area === String(area)),
            `${state} ${area} is an area of the county table`,
          );
          assert.ok(!rows.some((r) => r.state === state && r.area === area), `${state} ${area}: no row`);
        }
      }
      assert.equal(Math.max(...areas.get('FL')!), 67);
      assert.equal(areas.get('TX')!.length, 27);
    });

    test('monthly benchmark premiums in a plausible absolute range', () => {
      // A monthly SLCSP for a child (0–14) under $100 or over $1,000, or for a 40-year-old under $200 or over
      // $1,500, would be a unit slip (yearly, cents) — the file's extremes are $145 (IN area 14, 2019) and
      // $789 for a child, $242.24 and $1,318.09 at 40. NY and VT give the adult base rate ($429–$1,299).
      for (const r of slcsp()) {
        const where = `${r.year} ${r.state} ${r.area}`;
        if (COMMUNITY_RATED.has(r.state)) {
          assert.ok(r.age0 >= 300 && r.age0 <= 1500, where);
        } else {
          assert.ok(r.age0 >= 100 && r.age0 <= 1000, `${where}: ${r.age0}`);
          assert.ok(r.age40! >= 200 && r.age40! <= 1500, `${where}: ${r.age40}`);
        }
      }
    });

    test('the basis: slcsp_age40_derived = slcsp_age0 × factor(40) / factor(0) of the state’s curve', () => {
      const curves = new Map<string, Map<number, number>>();
      for (const row of csv(CURVES_FILE).rows) {
        const curve = curves.get(row.curve!) ?? new Map<number, number>();
        curve.set(Number(row.age), Number(row.factor));
        curves.set(row.curve!, curve);
      }
      const federal = curves.get('FEDERAL_DEFAULT_2018')!;
      // The federal default curve (PY2018 on): 1.278 / 0.765 = 1.6706 (docs/decisions.md#age-rating).
      assert.equal(federal.get(0), 0.765);
      assert.equal(federal.get(40), 1.278);
      let checked = 0;
      for (const r of slcsp().filter((r) => !COMMUNITY_RATED.has(r.state))) {
        const curve = STATE_CURVES.has(r.state) ? curves.get(r.state)! : federal;
        // Rounded to the cent from an exact product: within half a cent.
        const expected = (r.age0 * curve.get(40)!) / curve.get(0)!;
        assert.ok(
          Math.abs(r.age40! - expected) <= 0.005 + 1e-9,
          `${r.year} ${r.state} ${r.area}: ${r.age40}`,
        );
        if (!STATE_CURVES.has(r.state)) {
          assert.ok(Math.abs(r.age40! - (r.age0 * 1.278) / 0.765) <= 0.005 + 1e-9);
          checked += 1;
        }
      }
      assert.equal(checked, 3960, 'rows of federal-curve states');
    });

    test('KFF’s 2025 state averages (age 40) lie within the state’s derived 2025 values, ± $5', () => {
      // PROVENANCE: single-area states agree within $4; multi-area states bracket KFF's plan-selection
      // weighted average. NY and VT compare the adult base rate.
      const kff = csv(KFF_FILE).rows;
      assert.equal(kff.length, 51);
      const of2025 = slcsp().filter((r) => r.year === 2025);
      for (const row of kff) {
        const values = of2025.filter((r) => r.state === row.state).map((r) => r.age40 ?? r.age0);
        const average = Number(row.avg_benchmark_premium_age40_monthly);
        assert.ok(
          average >= Math.min(...values) - 5 && average <= Math.max(...values) + 5,
          `${row.state}: KFF ${average}, PolicyEngine ${Math.min(...values)}–${Math.max(...values)}`,
        );
      }
    });

    test('the 2026 LCBP file: the same 498 areas, the same basis, plausible amounts', () => {
      const lcbp = readBenchmarks(LCBP_FILE, 'lcbp');
      assert.equal(lcbp.length, 498);
      assert.ok(lcbp.every((r) => r.year === 2026));
      const slcsp2026 = new Set(
        slcsp()
          .filter((r) => r.year === 2026)
          .map((r) => `${r.state}|${r.area}`),
      );
      assert.deepEqual(new Set(lcbp.map((r) => `${r.state}|${r.area}`)), slcsp2026);
      for (const r of lcbp) {
        assert.ok(r.age0 >= 100 && r.age0 <= 1500, `${r.state} ${r.area}: ${r.age0}`);
        if (r.age40 !== null && !STATE_CURVES.has(r.state)) {
          assert.ok(Math.abs(r.age40 - (r.age0 * 1.278) / 0.765) <= 0.005 + 1e-9, `${r.state} ${r.area}`);
        }
      }
    });
  },
);

// ---------------------------------------------------------------------------------------------------
// The generated sample market against the real benchmarks.

/**
 * The plausible band for a sample benchmark premium, as a multiple of PolicyEngine's for the same Texas
 * rating area and year: 0.5× to 2×. Why that wide, from the PolicyEngine basis (PROVENANCE.md):
 * - its figure is the SLCSP at ONE representative ZIP of the area, whole dollars; counties of one area
 *   differ where issuers' service areas differ, and the sample's counties (Comal, Guadalupe, Hays) need
 *   not be the representative ones;
 * - real benchmarks move a lot: Texas 2025 county averages span $446–$727 at age 40 (KFF), and area 3
 *   went from $437.69 (2019) to $624.80 (2026), area 18 from $471.11 (2021) to $636.49 (2026);
 * - the sample generator is not indexed by year (one base-rate range for every year, src/plans/sample/
 *   market.ts), so one sample level is compared with nine years of real ones;
 * - for 2018–2022 PolicyEngine numbers Texas areas as it does today (backdated in 2026), while Texas's
 *   areas changed after 2014 (reference_tables/PROVENANCE.md; Comal was area 19 in the CMS 2014 table),
 *   so in those years the same number may not be the same place.
 * What falls outside it is a unit or factor slip, not a matter of degree: cents for dollars (100×), a
 * yearly premium (12×), an adult rated at 64 (3 / 1.278 = 2.35×). A finer slip, a child at the adult rate
 * (1 / 0.765 = 1.31×), is caught by the last test below (child = adult × 0.765 / 1.278).
 */
const BAND = { low: 0.5, high: 2 } as const;
const YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026];
/** The sample's three counties (two rating areas), each with a ZIP inside it. */
const PLACES = [
  { countyfips: '48091', state: 'TX', zipcode: '78070' }, // Comal, area 18 (San Antonio)
  { countyfips: '48187', state: 'TX', zipcode: '78155' }, // Guadalupe, area 18
  { countyfips: '48209', state: 'TX', zipcode: '78640' }, // Hays, area 3 (Austin)
];
const PEOPLE = [
  { who: 'a 40-year-old', age: 40, column: 'age40' },
  { who: 'a child (0–14)', age: 10, column: 'age0' },
] as const;

describe(
  'the SAMPLE market’s benchmark premiums against PolicyEngine’s real ones (Texas, 2018–2026)',
  { skip },
  () => {
    let running: RunningService | undefined;
    let dir = '';
    const benchmarks = new Map<string, Benchmark>();

    before(async () => {
      for (const r of readBenchmarks(SLCSP_FILE, 'slcsp').filter((r) => r.state === 'TX')) {
        benchmarks.set(`${r.year}|${r.area}`, r);
      }
      running = await startService({ SAMPLE_MARKET: 'false' });
      dir = mkdtempSync(join(tmpdir(), 'benchmark-ranges-'));
      const storage = running.service.storage;
      for (const year of YEARS) {
        const yearDir = join(dir, String(year));
        mkdirSync(yearDir);
        const files = await writeSampleMarket(yearDir, { year });
        for (const file of files) {
          // Geography once (it is one vintage whatever the year); Medicaid limits are not needed here.
          if (file.kind === 'medicaid') continue;
          if ((file.kind === 'counties' || file.kind === 'zip-county') && year !== YEARS[0]) continue;
          const yearless = file.kind === 'counties' || file.kind === 'zip-county';
          const summary = await ingest(storage, file.kind, [file.path], {
            sample: true,
            ...(yearless ? {} : { year }),
          });
          assert.equal(summary.rejectedCount, 0, `${year} ${file.kind}: ${JSON.stringify(summary.rejected)}`);
        }
      }
      running.service.plans.samples.refresh();
    });
    after(async () => {
      await running?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function slcsp(year: number, place: (typeof PLACES)[number], age: number) {
      const url = new URL('/api/v1/households/slcsp', running!.url);
      url.searchParams.set('apikey', SANDBOX_KEY);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          year,
          place,
          household: {
            income: -1,
            people: [{ age, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
          },
        }),
      });
      const text = await response.text();
      assert.equal(response.status, 200, `${year} ${place.countyfips} age ${age}: ${text}`);
      return {
        ...(JSON.parse(text) as { id: string; premium: number }),
        sample: response.headers.get(SAMPLE_HEADER),
      };
    }

    for (const { who, age, column } of PEOPLE) {
      test(`${who}: within ${BAND.low}×–${BAND.high}× of PolicyEngine’s SLCSP in every year and area`, async (t) => {
        const ratios: string[] = [];
        for (const year of YEARS) {
          for (const place of PLACES) {
            const area = SAMPLE_COUNTIES.find((c) => c.fips === place.countyfips)!.ratingArea;
            const real = benchmarks.get(`${year}|${area}`)!;
            const reference = column === 'age40' ? real.age40! : real.age0;
            const answer = await slcsp(year, place, age);
            assert.ok(answer.sample, 'the answer is labelled as sample data');
            const ratio = answer.premium / reference;
            ratios.push(`${year} area ${area}: ${answer.premium} / ${reference} = ${ratio.toFixed(2)}`);
            assert.ok(
              ratio >= BAND.low && ratio <= BAND.high,
              `${year} TX area ${area}, ${who}: sample SLCSP $${answer.premium} vs PolicyEngine $${reference}`,
            );
          }
        }
        t.diagnostic(ratios.join('; '));
      });
    }

    test('the child’s benchmark is the adult’s × 0.765 / 1.278 (one federal curve, 2018 on)', async () => {
      for (const year of [2018, 2026]) {
        for (const place of PLACES) {
          const [adult, child] = await Promise.all([slcsp(year, place, 40), slcsp(year, place, 10)]);
          assert.equal(adult.id, child.id, 'the same plan is second-lowest at every age');
          assert.ok(
            Math.abs(child.premium - (adult.premium * 0.765) / 1.278) <= 0.02,
            `${year} ${place.countyfips}`,
          );
        }
      }
    });
  },
);
