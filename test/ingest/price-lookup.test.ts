import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { millsToCents, oppsCopayCents } from '../../src/prices/copay.js';
import { amountMills, percentThousandths } from '../../src/ingest/price-lookup/amounts.js';
import { Reject } from '../../src/ingest/engine/tabular-format.js';
import { openTabular } from '../../src/ingest/sources/tabular.js';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { ADDENDUM_B_2025 } from '../helpers/price-fixtures.js';
import { ingest, sharedData, skipWithoutSharedData } from '../helpers/shared-data.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
/** CMS ASC Addendum AA, January 2025: its HCPCS Level II rows, verbatim (test/fixtures/PROVENANCE.md). */
const ASC_EXCERPT = join(FIXTURES, 'asc-addendum-aa-cy2025-jan-excerpt.csv');
const ADDENDUM_A = 'medicare_pricing/opps_addendum_a_cy2025_jan_excerpt.csv';

const mills = (column: string, text: string | undefined): number | null => {
  const value = amountMills(column, text);
  assert.ok(!(value instanceof Reject), `${column} "${text}"`);
  return value;
};

describe(
  'the OPPS copayment rule against CMS Addendum A, CY 2025 (70 real APC rows)',
  { skip: skipWithoutSharedData(ADDENDUM_A) },
  () => {
    test("every row's copayment is the one CMS prints, but APC 1534's (New Technology band, printed at the cap)", async () => {
      const source = await openTabular(
        sharedData(ADDENDUM_A),
        undefined,
        undefined,
        (cells) => cells[0] === 'APC',
      );
      let rows = 0;
      let capped = 0;
      const printedAboveRule: string[] = [];
      for await (const { cells } of source.rows) {
        const rate = mills('Payment Rate', cells['Payment Rate']);
        if (rate === null) continue; // APC 2038: no payment rate
        const national = mills('National', cells['National Unadjusted Copayment']);
        const minimum = mills('Minimum', cells['Minimum Unadjusted Copayment']);
        const ira = percentThousandths('IRA', cells['IRA Coinsurance percentage']);
        assert.ok(!(ira instanceof Reject));
        const adjusted = mills('Adjusted', cells['Adjusted Beneficiary Copayment']);
        const printed = millsToCents(adjusted ?? national ?? minimum!);
        const computed = oppsCopayCents(
          {
            paymentRate: rate,
            nationalUnadjustedCopayment: national,
            minimumUnadjustedCopayment: minimum,
            iraCoinsurance: ira,
          },
          2025,
        );
        rows += 1;
        if (/capped at inpatient deductible of \$1,676\.00/.test(cells.Note ?? '')) capped += 1;
        // APC 1534 (New Technology, $8,001–$8,500): 20 % of its $8,250.50 is $1,650.10, yet CMS prints the
        // $1,676.00 deductible as its adjusted copayment (the band's top, $8,500, would reach it). The ingest
        // takes the printed figure wherever the addendum prints one, so the API says what CMS says.
        if (computed !== printed) {
          printedAboveRule.push(`${cells.APC} ${computed} ${printed}`);
          continue;
        }
      }
      assert.equal(rows, 69);
      assert.equal(capped, 5);
      assert.deepEqual(printedAboveRule, ['1534 165010 167600']);
    });

    test('the figures the excerpt is known by', () => {
      // APC 5166: $31,807.820, national $6,942.79, minimum $6,361.57 → $1,676.00 (capped).
      assert.equal(
        oppsCopayCents(
          {
            paymentRate: 31_807_820,
            nationalUnadjustedCopayment: 6_942_790,
            minimumUnadjustedCopayment: 6_361_570,
            iraCoinsurance: null,
          },
          2025,
        ),
        167_600,
      );
      // APC 0706 (IRA-adjusted coinsurance 19.787 % of $69.972) → $13.85, below the $14.00 minimum.
      assert.equal(
        oppsCopayCents(
          {
            paymentRate: 69_972,
            nationalUnadjustedCopayment: null,
            minimumUnadjustedCopayment: 14_000,
            iraCoinsurance: 19_787,
          },
          2025,
        ),
        1385,
      );
      // Without a known deductible for the year, no cap is applied.
      assert.equal(
        oppsCopayCents(
          {
            paymentRate: 31_807_820,
            nationalUnadjustedCopayment: 6_942_790,
            minimumUnadjustedCopayment: 6_361_570,
            iraCoinsurance: null,
          },
          2031,
        ),
        694_279,
      );
    });

    test('amounts are read exactly, in mills', () => {
      assert.equal(amountMills('x', '"$4,146.335"'.replace(/"/g, '')), 4_146_335);
      assert.equal(amountMills('x', '$9,891.33 '), 9_891_330);
      assert.equal(amountMills('x', '.'), null);
      assert.equal(amountMills('x', ''), null);
      assert.ok(amountMills('x', '$1,2x4.00') instanceof Reject);
      assert.equal(millsToCents(4_146_335), 414_634); // half up
    });
  },
);

describe('ingest opps-addendum-b and asc-addendum-aa', () => {
  const suite = ingestSuite('price-lookup');
  const costs = (facility: string) =>
    suite.storage.db
      .selectFrom('ppl_costs')
      .select(['year', 'code', 'description', 'indicator', 'apc', 'total_cents', 'copay_cents'])
      .where('facility_type', '=', facility)
      .orderBy('code')
      .execute();

  test('OPPS Addendum B: the national payment rate and copayment per code, for the year of the file name', async () => {
    const file = suite.lines('2025_january_web_addendum_b.csv', ADDENDUM_B_2025, '\r\n');
    const summary = await ingest(suite.storage, 'opps-addendum-b', [file]);
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
    assert.deepEqual(summary.years, [2025]);
    assert.deepEqual(await costs('HOPD'), [
      {
        year: 2025,
        code: '71046',
        description: '',
        indicator: 'S',
        apc: '5521',
        total_cents: 8805,
        copay_cents: 1761,
      },
      {
        year: 2025,
        code: 'G0463',
        description: 'Hospital outpt clinic visit',
        indicator: 'J2',
        apc: '5012',
        total_cents: 12887,
        copay_cents: 2578,
      },
    ]);
  });

  test('ASC Addendum AA (real CY 2025 rows): 20 % coinsurance, none for ** preventive services, packaged codes skipped', async () => {
    const summary = await ingest(suite.storage, 'asc-addendum-aa', [ASC_EXCERPT]);
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
    assert.deepEqual(summary.years, [2025]);
    const stored = await costs('ASC');
    // 97 HCPCS Level II rows; 11 are packaged (N1) without a payment rate.
    assert.equal(stored.length, 86);
    const byCode = new Map(stored.map((r) => [r.code, r]));
    // C9600,,Perc drug-el cor stent sing,Y,J8,128.6503,"$7,062.26" → copay 20 % = $1,412.45.
    assert.deepEqual(byCode.get('C9600'), {
      year: 2025,
      code: 'C9600',
      description: 'Perc drug-el cor stent sing',
      indicator: 'J8',
      apc: null,
      total_cents: 706_226,
      copay_cents: 141_245,
    });
    // G0105,**,Colorectal scrn; hi risk ind,Y,A2,8.9164,$489.47 → preventive: no coinsurance.
    assert.equal(byCode.get('G0105')!.total_cents, 48_947);
    assert.equal(byCode.get('G0105')!.copay_cents, 0);
    assert.equal(byCode.get('G0104')!.copay_cents, 0);
    assert.equal(byCode.get('G0121')!.copay_cents, 0);
    // G0564, *,365 d implant glucose sensor,Y,R2,31.7872,"$1,744.96" (one star: office-based, not preventive).
    assert.equal(byCode.get('G0564')!.copay_cents, 34_899);
    // C5272,,Low cost skin substitute app,N,N1,, → packaged.
    assert.equal(byCode.has('C5272'), false);
    // The OPPS rows of the previous load are the other addendum's: untouched.
    assert.equal((await costs('HOPD')).length, 2);
  });

  test('a malformed amount is refused with its line; the previous ASC rows stay', async () => {
    const before = await costs('ASC');
    const text = readFileSync(ASC_EXCERPT, 'latin1').replace('"$7,062.26"', '"$7,06x.26"');
    const file = suite.file('aa-bad-amount.csv', Buffer.from(text, 'latin1'));
    const error = await failedIngest(suite.storage, 'asc-addendum-aa', [file]);
    const line = text.split('\n').findIndex((l) => l.startsWith('C9600')) + 1;
    assert.deepEqual(
      error.summary?.rejected.map((r) => [r.line, r.reason]),
      [[line, 'January 2025 Payment Rate "$7,06x.26" is not an amount']],
    );
    assert.deepEqual(await costs('ASC'), before);
  });

  test('a truncated file (cut inside a quoted amount) is refused; the previous ASC rows stay', async () => {
    const before = await costs('ASC');
    const bytes = readFileSync(ASC_EXCERPT);
    const cut = bytes.indexOf('"$6,633.26"') + 4;
    const error = await failedIngest(suite.storage, 'asc-addendum-aa', [
      suite.file('aa-truncated.csv', bytes.subarray(0, cut)),
    ]);
    assert.match(error.message, /malformed CSV .*nothing was stored/);
    assert.deepEqual(await costs('ASC'), before);
  });

  test('title lines without the header, or a header without a payment column, are not an addendum', async () => {
    const titleOnly = suite.lines('aa-title-only.csv', ADDENDUM_B_2025.slice(0, 3));
    const empty = await failedIngest(suite.storage, 'asc-addendum-aa', [titleOnly]);
    assert.match(empty.message, /no data rows in .*aa-title-only\.csv; nothing was stored/);
    const noRate = suite.lines('2025_b_no_rate.csv', [
      ADDENDUM_B_2025[3]!.replace(',Payment Rate', ''),
      'G0463,Hospital outpt clinic visit,J2,5012,1.4452,.,$25.78,',
    ]);
    const missing = await failedIngest(suite.storage, 'opps-addendum-b', [noRate]);
    assert.match(missing.message, /not a opps-addendum-b file: missing column "payment rate"/);
    assert.equal((await costs('HOPD')).length, 2);
  });

  test('ppl-procedures: the operator list replaces the previous one; a bad frequency refuses the load', async () => {
    const list = suite.csv('procedures.csv', [
      { code: 'G0463', description: 'Hospital outpatient clinic visit', frequency: '120000' },
      { code: 'c9600', description: 'Drug-eluting coronary stent, single vessel', frequency: '800' },
    ]);
    await ingest(suite.storage, 'ppl-procedures', [list]);
    const stored = () => suite.storage.db.selectFrom('ppl_procedures').selectAll().orderBy('code').execute();
    assert.deepEqual(
      (await stored()).map((r) => [r.code, Number(r.frequency)]),
      [
        ['C9600', 800],
        ['G0463', 120000],
      ],
    );
    const bad = suite.csv('procedures-bad.csv', [{ code: 'G0463', description: 'x', frequency: 'often' }]);
    const error = await failedIngest(suite.storage, 'ppl-procedures', [bad]);
    assert.deepEqual(
      error.summary?.rejected.map((r) => r.reason),
      ['frequency "often" is not a whole number'],
    );
    assert.equal((await stored()).length, 2);
  });
});
