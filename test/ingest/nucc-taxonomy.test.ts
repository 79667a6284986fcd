import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failedIngest, ingestSuite } from '../helpers/ingest-suite.js';
import { ingest } from '../helpers/shared-data.js';
import { NUCC_COLUMNS } from '../../src/plans/tables/taxonomy-codes.js';

// Real taxonomy codes of the NPPES NPI Registry API answers recorded in ../shared/data/providers/, with
// the registry's `desc` for each, split where the registry joins classification and specialization
// (207RX0202X "Internal Medicine Medical Oncology", 367500000X "Nurse Anesthetist, Certified Registered").
// The registry's desc stands in for the NUCC Display Name, which the recorded answers do not carry;
// Grouping, Definition and Notes are not read and left empty.
const HEADER: readonly string[] = NUCC_COLUMNS;
const TAXONOMIES = [
  ['207RX0202X', 'Internal Medicine', 'Medical Oncology', 'Internal Medicine Medical Oncology'],
  ['367500000X', 'Nurse Anesthetist, Certified Registered', '', 'Nurse Anesthetist, Certified Registered'],
  ['207L00000X', 'Anesthesiology', '', 'Anesthesiology'],
] as const;

describe('ingest nucc-taxonomy (NUCC Health Care Provider Taxonomy CSV)', () => {
  const suite = ingestSuite('nucc-taxonomy');
  const current = (rows: readonly (readonly string[])[]) =>
    rows.map(([code, classification, specialization, display]) => ({
      Code: code!,
      Grouping: '',
      Classification: classification!,
      Specialization: specialization!,
      Definition: '',
      Notes: '',
      'Display Name': display!,
      Section: 'Individual',
    }));
  const stored = () =>
    suite.storage.db.selectFrom('provider_taxonomies').selectAll().orderBy('code').execute();

  test('stores each code with its classification, specialization and display name', async () => {
    const file = suite.csv('nucc_taxonomy_250.csv', current(TAXONOMIES), { header: HEADER });
    const summary = await ingest(suite.storage, 'nucc-taxonomy', [file]);
    assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected));
    assert.deepEqual(
      (await stored()).map((r) => [r.code, r.classification, r.specialization, r.display_name]),
      [TAXONOMIES[2], TAXONOMIES[0], TAXONOMIES[1]],
    );
  });

  test('a code that is not nine characters and X is refused with file and line; the list stays', async () => {
    const rows = current([TAXONOMIES[0], ['207rx0202x', 'Internal Medicine', 'Medical Oncology', 'x']]);
    const file = suite.csv('bad-code.csv', rows, { header: HEADER });
    const error = await failedIngest(suite.storage, 'nucc-taxonomy', [file]);
    assert.deepEqual(
      error.summary?.rejected.map((r) => [r.file, r.line, r.reason]),
      [[file, 3, 'Code "207rx0202x" is not a 10-character taxonomy code']],
    );
    assert.equal((await stored()).length, TAXONOMIES.length);
  });

  test('an older file without Display Name names each code by its specialization, else classification', async () => {
    const older = HEADER.filter((name) => name !== 'Display Name' && name !== 'Section');
    const rows = current(TAXONOMIES.slice(0, 2)).map(({ 'Display Name': _, Section: __, ...cells }) => cells);
    const summary = await ingest(suite.storage, 'nucc-taxonomy', [
      suite.csv('nucc_taxonomy_100.csv', rows, { header: older }),
    ]);
    assert.equal(summary.rejectedCount, 0);
    // The load replaced the list: 207L00000X of the first load is gone.
    assert.deepEqual(
      (await stored()).map((r) => [r.code, r.display_name]),
      [
        ['207RX0202X', 'Medical Oncology'],
        ['367500000X', 'Nurse Anesthetist, Certified Registered'],
      ],
    );
  });
});
