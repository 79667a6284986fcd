import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { variableUrl } from '../../src/fhir/bfd/elements.js';
import { MBI_SYSTEM } from '../../src/fhir/bfd/patient.js';
import { SYNTHETIC_TAG } from '../../src/fhir/directory.js';
import { runIngest } from '../../src/ingest/engine/run.js';
import { IngestError } from '../../src/ingest/engine/report.js';
import { splitCells, CellError } from '../../src/ingest/rif/cells.js';
import { RIF_COLUMNS } from '../../src/ingest/rif/columns.js';
import { recogniseHeader } from '../../src/ingest/rif/header.js';
import { rifKind } from '../../src/ingest/rif/kind.js';
import { npiRecordOf, storedLookups } from '../../src/ingest/rif/lookups.js';
import { BFD_FIXTURES, servedBody } from '../helpers/bfd.js';
import { runCli } from '../helpers/cli.js';
import { ingestSuite, rejectLines } from '../helpers/ingest-suite.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

// `ingest rif`: how files are read, checked, grouped and stored, with the transforms the service uses
// (src/fhir/bfd/transform.ts); what those make of each record is compared with BFD's answers in
// test/ingest/rif-bfd.test.ts, here only what tells the load's work apart (ids, items, payments, MBIs).

const RIF = join(BFD_FIXTURES, 'rif');
const sample = (name: string) => join(RIF, name);

/** The header and first data row of a BFD sample file. */
function sampleRow(name: string): { header: string[]; row: Record<string, string> } {
  const [head, first] = readFileSync(sample(name), 'utf8').split(/\r?\n/);
  const header = head!.split('|');
  const cells = first!.split('|');
  return { header, row: Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])) };
}

/** RIF text: the sample's header and, per entry, its first row with `changes` applied. */
function rifText(name: string, changes: Record<string, string>[]): string[] {
  const { header, row } = sampleRow(name);
  return [header.join('|'), ...changes.map((c) => header.map((h) => c[h] ?? row[h]).join('|'))];
}

/** The parts of a stored resource these tests read (the resources are the real transforms' own). */
interface Resource {
  id: string;
  meta: { versionId?: string; profile?: string[]; tag?: unknown[] };
  identifier?: Identifier[];
  billablePeriod?: { start?: string; end?: string };
  item?: { sequence: number }[];
  payment?: { amount: { value: number; currency: string } };
  careTeam?: Record<string, unknown>[];
  extension?: { url: string; valueDate?: string }[];
  subscriberId?: string;
}

/** An identifier, with the currency (current or historic) of a Patient's MBI. */
interface Identifier {
  system?: string;
  value?: string;
  type?: { coding?: { extension?: { valueCoding?: { code?: string } }[] }[] };
}

/** The item sequences of an ExplanationOfBenefit: one item per claim line, numbered by LINE_NUM. */
const itemSequences = (eob: Resource) => (eob.item ?? []).map((i) => i.sequence);

/** The claim payment of an ExplanationOfBenefit (`CLM_PMT_AMT`). */
const paid = (eob: Resource) => eob.payment?.amount.value;

/** A Patient's MBIs as `[currency, MBI]`: the current one (`MBI_NUM`), then its history's earlier ones. */
const mbis = (patient: Resource) =>
  (patient.identifier ?? [])
    .filter((i) => i.system === MBI_SYSTEM)
    .map((i) => [i.type?.coding?.[0]?.extension?.[0]?.valueCoding?.code, i.value]);

/** A Coverage's reference year (`RFRNC_YR`). */
const referenceYear = (coverage: Resource) =>
  coverage.extension?.find((e) => e.url === variableUrl('rfrnc_yr'))?.valueDate;

/** BFD's CARIN profile of a carrier claim's ExplanationOfBenefit. */
const CARRIER_PROFILE =
  'http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-ExplanationOfBenefit-Professional-NonClinician|2.0.0';

describe('ingest rif: reading RIF files', () => {
  test('each record type is told by its header (BFD samples; MBI history by its columns)', () => {
    const expected: Record<string, string> = {
      'sample-a-beneficiaries.txt': 'beneficiary',
      'sample-a-beneficiaryhistory.txt': 'beneficiary-history',
      'sample-a-bcarrier.txt': 'carrier',
      'sample-a-dme.txt': 'dme',
      'sample-a-hha.txt': 'hha',
      'sample-a-hospice.txt': 'hospice',
      'sample-a-inpatient.txt': 'inpatient',
      'sample-a-outpatient.txt': 'outpatient',
      'sample-a-snf.txt': 'snf',
      'sample-a-pde.txt': 'pde',
    };
    for (const [name, type] of Object.entries(expected)) {
      assert.deepEqual(recogniseHeader(sampleRow(name).header), { type, missing: [] }, name);
    }
    const mbi = RIF_COLUMNS['mbi-history'].map((c) => c.name);
    assert.deepEqual(recogniseHeader(mbi), { type: 'mbi-history', missing: [] });
    // A header lacking some of a type's columns is still that type, with those named.
    const carrier = sampleRow('sample-a-bcarrier.txt').header.filter((h) => h !== 'CLM_THRU_DT');
    assert.deepEqual(recogniseHeader(carrier), { type: 'carrier', missing: ['CLM_THRU_DT'] });
    assert.deepEqual(recogniseHeader(['npi', 'name', 'city']), { type: undefined, missing: [] });
  });

  test('cells: pipes, a backslash before a pipe dropped, quotes and escapes as BFD reads them', () => {
    assert.deepEqual(splitCells('a|b||'), ['a', 'b', '', '']);
    assert.deepEqual(splitCells('DAEJEON SI 34867\\|COLOMBIA'), ['DAEJEON SI 34867', 'COLOMBIA']);
    assert.deepEqual(splitCells('"a|b"|c'), ['a|b', 'c']);
    assert.deepEqual(splitCells('"say ""hi"""|x'), ['say "hi"', 'x']);
    assert.deepEqual(splitCells('O\\"BRIEN|a\\\\b|t\\tab|\\q'), ['O"BRIEN', 'a\\b', 't\tab', '\\q']);
    assert.deepEqual(splitCells('x"y|z'), ['x"y', 'z']);
    assert.throws(() => splitCells('"open|x'), CellError);
    assert.throws(() => splitCells('"a"b|x'), CellError);
  });

  test('the names of reference data: an NPPES row as BFD names it', () => {
    assert.deepEqual(
      npiRecordOf({
        type: 'Individual',
        name: 'HAROLD LEROY SMITSON II, M.D., PH.D.',
        taxonomy: '204D00000X',
        display_name: 'Neuromusculoskeletal Medicine & OMM Physician',
      }),
      {
        entityType: '1',
        lastName: 'HAROLD LEROY SMITSON II',
        credential: 'M.D., PH.D.',
        taxonomyCode: '204D00000X',
        taxonomyDisplay: 'Neuromusculoskeletal Medicine & OMM Physician',
      },
    );
    assert.deepEqual(
      npiRecordOf({
        type: 'Facility',
        name: 'ADVANTAGE HOME HEALTH CARE, INC.',
        taxonomy: '',
        display_name: null,
      }),
      { entityType: '2', organizationName: 'ADVANTAGE HOME HEALTH CARE, INC.' },
    );
  });
});

describe('ingest rif: loads', () => {
  const suite = ingestSuite('rif');
  const db = () => suite.storage.db;
  const load = (files: string[], options: { allowRejects?: number } = {}) =>
    runIngest(rifKind(), files, db(), {
      now: Date.now(),
      allowRejects: options.allowRejects ?? 0,
    });
  const failed = async (files: string[], options: { allowRejects?: number } = {}): Promise<IngestError> => {
    try {
      await load(files, options);
    } catch (error) {
      assert.ok(error instanceof IngestError, String(error));
      return error;
    }
    assert.fail('the load should have failed');
  };
  const body = async (type: string, id: string) => {
    const served = await servedBody(db(), type, id);
    const row = await db()
      .selectFrom('fhir_resources')
      .selectAll()
      .where('resource_type', '=', type)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { ...row, json: JSON.parse(served!) as Resource };
  };
  /** The ids of a beneficiary's stored resources of `type`. */
  const idsOf = async (type: string, beneId: string) =>
    (
      await db()
        .selectFrom('fhir_resources')
        .select('id')
        .where('resource_type', '=', type)
        .where('patient_id', '=', beneId)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  /** A beneficiary's row as kept in rif_beneficiaries. */
  const beneficiaryRow = async (beneId: string) => {
    const row = await db()
      .selectFrom('rif_beneficiaries')
      .select('row')
      .where('bene_id', '=', beneId)
      .executeTakeFirst();
    return row && (JSON.parse(row.row) as Record<string, string>);
  };
  /** A beneficiary's rows of rif_beneficiary_history in load order, as `[record type, MBI_NUM]`. */
  const historyOf = async (beneId: string) =>
    (
      await db()
        .selectFrom('rif_beneficiary_history')
        .select(['record_type', 'row'])
        .where('bene_id', '=', beneId)
        .orderBy('seq')
        .execute()
    ).map((r) => [r.record_type, (JSON.parse(r.row) as Record<string, string>).MBI_NUM]);
  let n = 0;
  /** A RIF file of `changes` to the sample's first row (a fresh name each time). */
  const file = (name: string, changes: Record<string, string>[]) =>
    suite.lines(`${(n += 1)}-${name}`, rifText(name, changes));

  test('a claim is its lines (grouped by CLM_ID), stored as one EOB with the store facts', async () => {
    const summary = await load([
      file('sample-a-bcarrier.txt', [
        { CLM_ID: '7001', LINE_NUM: '1' },
        { CLM_ID: '7001', LINE_NUM: '2' },
        { CLM_ID: '7001', LINE_NUM: '3' },
        { CLM_ID: '7002', LINE_NUM: '1', BENE_ID: '-88' },
      ]),
    ]);
    assert.deepEqual([summary.read, summary.stored, summary.rejectedCount], [4, 2, 0]);
    const eob = (await body('ExplanationOfBenefit', 'carrier-7001'))!;
    assert.equal(eob.json.id, 'carrier-7001');
    assert.deepEqual(itemSequences(eob.json), [1, 2, 3]);
    assert.deepEqual(
      [eob.patient_id, eob.eob_type, eob.service_date, Number(eob.samhsa)],
      ['567834', 'carrier', '1999-10-27', 0],
    );
    assert.equal(eob.json.meta.versionId, '1');
    assert.deepEqual(eob.json.meta.profile, [CARRIER_PROFILE]);
    assert.equal(eob.json.meta.tag, undefined);
    // A negative BENE_ID is BFD's synthetic data: tagged as the sandbox's resources are.
    const synthetic = (await body('ExplanationOfBenefit', 'carrier-7002'))!;
    assert.equal(synthetic.patient_id, '-88');
    assert.deepEqual(itemSequences(synthetic.json), [1]);
    assert.deepEqual(synthetic.json.meta.tag, [SYNTHETIC_TAG]);
    const tokens = await db()
      .selectFrom('fhir_search_tokens')
      .selectAll()
      .where('id', '=', 'carrier-7001')
      .execute();
    assert.deepEqual(tokens.map((t) => [t.param, t.system, t.value]).sort(), [
      ['identifier', 'https://bluebutton.cms.gov/resources/identifier/claim-group', '900'],
      ['identifier', 'https://bluebutton.cms.gov/resources/variables/clm_id', '7001'],
    ]);
  });

  test('a Part D event is one line; every claim type is read', async () => {
    const files = [
      file('sample-a-pde.txt', [{ PDE_ID: '9001' }, { PDE_ID: '9002' }]),
      file('sample-a-dme.txt', [{ CLM_ID: '9003' }]),
      file('sample-a-hha.txt', [{ CLM_ID: '9004' }]),
      file('sample-a-hospice.txt', [{ CLM_ID: '9005' }]),
      file('sample-a-inpatient.txt', [{ CLM_ID: '9006' }]),
      file('sample-a-outpatient.txt', [{ CLM_ID: '9007' }]),
      file('sample-a-snf.txt', [{ CLM_ID: '9008' }]),
    ];
    const summary = await load(files);
    assert.deepEqual([summary.read, summary.stored, summary.rejectedCount], [8, 8, 0]);
    const expected: [string, string][] = [
      ['pde-9001', 'pde'],
      ['pde-9002', 'pde'],
      ['dme-9003', 'dme'],
      ['hha-9004', 'hha'],
      ['hospice-9005', 'hospice'],
      ['inpatient-9006', 'inpatient'],
      ['outpatient-9007', 'outpatient'],
      ['snf-9008', 'snf'],
    ];
    for (const [id, type] of expected) {
      const eob = await body('ExplanationOfBenefit', id);
      assert.ok(eob, id);
      assert.deepEqual([eob.json.id, eob.eob_type, eob.patient_id], [id, type, '567834'], id);
    }
    const pde = (await body('ExplanationOfBenefit', 'pde-9001'))!;
    assert.equal(pde.service_date, '2015-05-12');
    assert.equal(pde.json.item?.length, 1);
  });

  test('a directory is its RIF files in name order', async () => {
    const summary = await load([join(RIF, 'samhsa')], { allowRejects: 0 });
    assert.equal(summary.rejectedCount, 0);
    assert.ok(summary.read > 4000);
    assert.ok(summary.stored > 0);
  });

  test('dates, amounts and required values are checked, rejects as file:line with the column', async () => {
    const path = file('sample-a-bcarrier.txt', [
      { CLM_ID: '7101' },
      { CLM_ID: '7102', CLM_FROM_DT: '31-FEB-1999' },
      { CLM_ID: '7103', CLM_PMT_AMT: '12,50', LINE_NUM: 'one' },
      { CLM_ID: '7104', CLM_THRU_DT: '' },
      { CLM_ID: '7105', CLM_FROM_DT: '19991027', CLM_THRU_DT: '19991027' },
    ]);
    const error = await failed([path]);
    const name = path.split('/').pop();
    assert.deepEqual(rejectLines(error.summary), [
      `${name}:3: CLM_FROM_DT "31-FEB-1999" is not a date (DD-MON-YYYY or YYYYMMDD)`,
      `${name}:4: CLM_PMT_AMT "12,50" is not a number; LINE_NUM "one" is not a whole number`,
      `${name}:5: CLM_THRU_DT is empty (BFD requires a value)`,
    ]);
    assert.equal(await body('ExplanationOfBenefit', 'carrier-7101'), undefined, 'nothing was stored');
    // Allowed, the good claims are stored (YYYYMMDD dates too).
    const summary = await load([path], { allowRejects: 3 });
    assert.deepEqual([summary.read, summary.stored, summary.rejectedCount], [5, 2, 3]);
    assert.ok(await body('ExplanationOfBenefit', 'carrier-7101'));
    const yyyymmdd = (await body('ExplanationOfBenefit', 'carrier-7105'))!;
    assert.equal(yyyymmdd.service_date, '1999-10-27');
    assert.deepEqual(yyyymmdd.json.billablePeriod, { start: '1999-10-27', end: '1999-10-27' });
  });

  test("a claim's lines must be consecutive; a refused line refuses its whole claim", async () => {
    const path = file('sample-a-bcarrier.txt', [
      { CLM_ID: '7201', LINE_NUM: '1' },
      { CLM_ID: '7202', LINE_NUM: '1' },
      { CLM_ID: '7201', LINE_NUM: '2' },
      { CLM_ID: '7203', LINE_NUM: '1' },
      { CLM_ID: '7203', LINE_NUM: '2', NCH_WKLY_PROC_DT: 'soon' },
      { CLM_ID: '7204', LINE_NUM: '1' },
      { CLM_ID: '7204', LINE_NUM: '2', BENE_ID: '1234' },
      { CLM_ID: '7205', LINE_NUM: '1', DML_IND: 'UPDATE' },
      { CLM_ID: '7205', LINE_NUM: '2' },
    ]);
    const name = path.split('/').pop();
    const summary = await load([path], { allowRejects: 100 });
    assert.deepEqual(rejectLines(summary), [
      `${name}:4: CLM_ID 7201 was read before, at line 2: a claim's lines must be consecutive`,
      `${name}:5: CLM_ID 7203 (lines 5-6) is not stored: line 6 is refused`,
      `${name}:6: NCH_WKLY_PROC_DT "soon" is not a date (DD-MON-YYYY or YYYYMMDD)`,
      `${name}:7: CLM_ID 7204 (lines 7-8) is not stored: line 8 is refused`,
      `${name}:8: BENE_ID 1234 differs from line 7's 567834`,
      `${name}:9: CLM_ID 7205 (lines 9-10) is not stored: line 10 is refused`,
      `${name}:10: DML_IND INSERT differs from line 9's UPDATE`,
    ]);
    assert.deepEqual(itemSequences((await body('ExplanationOfBenefit', 'carrier-7201'))!.json), [1]);
    assert.ok(await body('ExplanationOfBenefit', 'carrier-7202'));
    for (const id of ['carrier-7203', 'carrier-7204', 'carrier-7205']) {
      assert.equal(await body('ExplanationOfBenefit', id), undefined, id);
    }
    assert.equal(summary.read, summary.rejectedCount + 2);
  });

  test('a Part D event repeated, a short line and an unreadable line are refused', async () => {
    const { header } = sampleRow('sample-a-pde.txt');
    const lines = rifText('sample-a-pde.txt', [{ PDE_ID: '9101' }, { PDE_ID: '9102' }, { PDE_ID: '9101' }]);
    lines.push('INSERT|9103|short', `INSERT|9104|"unclosed${'|'.repeat(header.length)}`);
    const path = suite.lines('pde-repeats.txt', lines);
    const summary = await load([path], { allowRejects: 10 });
    assert.deepEqual(rejectLines(summary), [
      'pde-repeats.txt:4: PDE_ID 9101 was read before, at line 2 (a Part D event is one line)',
      `pde-repeats.txt:5: the line has 3 cells, the header ${header.length}`,
      'pde-repeats.txt:6: a quoted cell (cell 3) is not closed',
    ]);
    assert.equal(summary.stored, 2);
    assert.ok(await body('ExplanationOfBenefit', 'pde-9101'));
    assert.ok(await body('ExplanationOfBenefit', 'pde-9102'));
  });

  test('DML_IND: INSERT of a stored claim does nothing, UPDATE replaces or adds, DELETE is refused', async () => {
    await load([file('sample-a-bcarrier.txt', [{ CLM_ID: '7301', CLM_PMT_AMT: '10.00' }])]);
    const summary = await load([
      file('sample-a-bcarrier.txt', [
        { CLM_ID: '7301', CLM_PMT_AMT: '20.00', LINE_NUM: '1' },
        { CLM_ID: '7301', CLM_PMT_AMT: '20.00', LINE_NUM: '2' },
        { CLM_ID: '7302', DML_IND: 'UPDATE', CLM_PMT_AMT: '30.00' },
      ]),
    ]);
    assert.deepEqual([summary.read, summary.skipped, summary.stored], [3, 2, 1]);
    const kept = (await body('ExplanationOfBenefit', 'carrier-7301'))!;
    // The sample's one line (LINE_NUM 6), not the two lines of the INSERT that did nothing.
    assert.deepEqual([paid(kept.json), itemSequences(kept.json), kept.json.meta.versionId], [10, [6], '1']);
    const added = (await body('ExplanationOfBenefit', 'carrier-7302'))!;
    assert.deepEqual([paid(added.json), added.json.meta.versionId], [30, '1']);
    await load([
      file('sample-a-bcarrier.txt', [{ CLM_ID: '7301', DML_IND: 'UPDATE', CLM_PMT_AMT: '40.00' }]),
    ]);
    const updated = (await body('ExplanationOfBenefit', 'carrier-7301'))!;
    assert.equal(paid(updated.json), 40);
    assert.equal(updated.json.meta.versionId, '2');

    const path = file('sample-a-bcarrier.txt', [
      { CLM_ID: '7303', DML_IND: 'DELETE' },
      { CLM_ID: '7304', DML_IND: 'MERGE' },
    ]);
    const name = path.split('/').pop();
    assert.deepEqual(rejectLines((await failed([path])).summary), [
      `${name}:2: DML_IND DELETE: BFD's pipeline loads INSERT and UPDATE records only; nothing is deleted`,
      `${name}:3: DML_IND "MERGE" is not INSERT or UPDATE`,
    ]);
  });

  test('beneficiaries: INSERT, UPDATE, and history from either side builds the Patient again', async () => {
    const bene = (changes: Record<string, string>) => ({ BENE_ID: '-4001', RFRNC_YR: '2018', ...changes });
    const coverages = ['part-a--4001', 'part-b--4001', 'part-c--4001', 'part-d--4001'];
    // History first: kept until the beneficiary arrives.
    const early = await load([
      file('sample-a-beneficiaryhistory.txt', [{ BENE_ID: '-4001', MBI_NUM: 'OLDMBI00001' }]),
    ]);
    assert.deepEqual([early.read, early.stored], [1, 0]);
    assert.equal(await body('Patient', '-4001'), undefined);
    assert.equal(await beneficiaryRow('-4001'), undefined);
    assert.deepEqual(await historyOf('-4001'), [['beneficiary-history', 'OLDMBI00001']]);

    // The beneficiary: its Patient (with the history's MBI) and its Coverages of Parts A to D.
    const inserted = await load([file('sample-a-beneficiaries.txt', [bene({ MBI_NUM: 'CURMBI00001' })])]);
    assert.deepEqual([inserted.read, inserted.stored], [1, 5]);
    let patient = (await body('Patient', '-4001'))!;
    assert.deepEqual(mbis(patient.json), [
      ['current', 'CURMBI00001'],
      ['historic', 'OLDMBI00001'],
    ]);
    assert.deepEqual(patient.json.meta.tag, [SYNTHETIC_TAG]);
    assert.equal(patient.json.meta.versionId, '1');
    assert.deepEqual(await idsOf('Coverage', '-4001'), coverages);
    let partA = (await body('Coverage', 'part-a--4001'))!;
    assert.deepEqual([partA.patient_id, referenceYear(partA.json)], ['-4001', '2018']);
    assert.deepEqual(partA.json.meta.tag, [SYNTHETIC_TAG]);
    const row = (await beneficiaryRow('-4001'))!;
    assert.deepEqual([row.MBI_NUM, row.RFRNC_YR, row.DML_IND], ['CURMBI00001', '2018', undefined]);

    // History after: the Patient is built again with it.
    await load([file('sample-a-beneficiaryhistory.txt', [{ BENE_ID: '-4001', MBI_NUM: 'OLDMBI00002' }])]);
    patient = (await body('Patient', '-4001'))!;
    assert.deepEqual(mbis(patient.json), [
      ['current', 'CURMBI00001'],
      ['historic', 'OLDMBI00001'],
      ['historic', 'OLDMBI00002'],
    ]);
    assert.equal(patient.json.meta.versionId, '2');
    const twoRows = [
      ['beneficiary-history', 'OLDMBI00001'],
      ['beneficiary-history', 'OLDMBI00002'],
    ];
    assert.deepEqual(await historyOf('-4001'), twoRows);

    // The same history again is one row; an INSERT of a stored beneficiary does nothing.
    const again = await load([
      file('sample-a-beneficiaryhistory.txt', [{ BENE_ID: '-4001', MBI_NUM: 'OLDMBI00002' }]),
      file('sample-a-beneficiaries.txt', [bene({ MBI_NUM: 'OTHERMBI001' })]),
    ]);
    assert.deepEqual([again.read, again.skipped, again.stored], [2, 2, 0]);
    assert.deepEqual(await historyOf('-4001'), twoRows);
    assert.equal((await beneficiaryRow('-4001'))!.MBI_NUM, 'CURMBI00001');
    assert.equal((await body('Patient', '-4001'))!.json.meta.versionId, '2');

    // An UPDATE that changes the MBI keeps the replaced one as history (as BFD's pipeline does).
    await load([
      file('sample-a-beneficiaries.txt', [
        bene({ DML_IND: 'UPDATE', MBI_NUM: 'NEWMBI00001', RFRNC_YR: '2019' }),
      ]),
    ]);
    patient = (await body('Patient', '-4001'))!;
    const afterUpdate = [
      ['current', 'NEWMBI00001'],
      ['historic', 'OLDMBI00001'],
      ['historic', 'OLDMBI00002'],
      ['historic', 'CURMBI00001'],
    ];
    assert.deepEqual(mbis(patient.json), afterUpdate);
    const threeRows = [...twoRows, ['beneficiary-history', 'CURMBI00001']];
    assert.deepEqual(await historyOf('-4001'), threeRows);
    partA = (await body('Coverage', 'part-a--4001'))!;
    assert.deepEqual([referenceYear(partA.json), partA.json.subscriberId], ['2019', 'NEWMBI00001']);
    assert.equal((await beneficiaryRow('-4001'))!.RFRNC_YR, '2019');
    // An UPDATE that changes no identity adds no history.
    await load([
      file('sample-a-beneficiaries.txt', [
        bene({ DML_IND: 'UPDATE', MBI_NUM: 'NEWMBI00001', RFRNC_YR: '2020' }),
      ]),
    ]);
    assert.deepEqual(await historyOf('-4001'), threeRows);
    assert.deepEqual(mbis((await body('Patient', '-4001'))!.json), afterUpdate);
    assert.equal(referenceYear((await body('Coverage', 'part-a--4001'))!.json), '2020');

    // An UPDATE of a beneficiary never stored is refused, as BFD's pipeline stops on it.
    const path = file('sample-a-beneficiaries.txt', [bene({ BENE_ID: '-4002', DML_IND: 'UPDATE' })]);
    assert.deepEqual(rejectLines((await failed([path])).summary), [
      `${path.split('/').pop()}:2: UPDATE of beneficiary -4002, which is not stored (BFD's pipeline stops here): ` +
        'load its INSERT first',
    ]);
    assert.equal(await beneficiaryRow('-4002'), undefined);
    assert.equal(await body('Patient', '-4002'), undefined);
  });

  test('MBI history (no DML_IND column) reaches the Patient; a repeated row is one', async () => {
    await load([file('sample-a-beneficiaries.txt', [{ BENE_ID: '-4101', MBI_NUM: 'MBI4101CUR1' }])]);
    const columns = RIF_COLUMNS['mbi-history'].map((c) => c.name);
    const row = (id: string, mbi: string) =>
      columns
        .map((c) =>
          c === 'BENE_MBI_ID'
            ? id
            : c === 'BENE_ID'
              ? '-4101'
              : c === 'MBI_NUM'
                ? mbi
                : c === 'MBI_EFCTV_BGN_DT'
                  ? '16-APR-2011'
                  : '',
        )
        .join('|');
    const path = suite.lines('mbi-history.txt', [
      columns.join('|'),
      row('11999980', 'MBI4101OLD1'),
      row('11999980', 'MBI4101OLD1'),
      row('11999981', 'MBI4101OLD2'),
    ]);
    const summary = await load([path]);
    assert.deepEqual([summary.read, summary.skipped, summary.rejectedCount], [3, 1, 0]);
    assert.deepEqual(await historyOf('-4101'), [
      ['mbi-history', 'MBI4101OLD1'],
      ['mbi-history', 'MBI4101OLD2'],
    ]);
    const patient = (await body('Patient', '-4101'))!;
    assert.deepEqual(mbis(patient.json), [
      ['current', 'MBI4101CUR1'],
      ['historic', 'MBI4101OLD1'],
      ['historic', 'MBI4101OLD2'],
    ]);
    assert.equal(patient.json.meta.versionId, '2');
  });

  test('a failed load leaves the previous data exactly as it was', async () => {
    await load([
      file('sample-a-bcarrier.txt', [{ CLM_ID: '7401', CLM_PMT_AMT: '1.00' }]),
      file('sample-a-beneficiaries.txt', [{ BENE_ID: '-4201' }]),
    ]);
    const before = await db()
      .selectFrom('fhir_resources')
      .select(['id', 'body', 'source'])
      .orderBy('id')
      .execute();
    const beneficiaries = await db().selectFrom('rif_beneficiaries').selectAll().execute();
    const history = await db().selectFrom('rif_beneficiary_history').selectAll().orderBy('seq').execute();
    const error = await failed([
      file('sample-a-bcarrier.txt', [
        { CLM_ID: '7401', DML_IND: 'UPDATE', CLM_PMT_AMT: '2.00' },
        { CLM_ID: '7402' },
      ]),
      file('sample-a-beneficiaries.txt', [{ BENE_ID: '-4201', DML_IND: 'UPDATE', MBI_NUM: 'CHANGED0001' }]),
      file('sample-a-bcarrier.txt', [{ CLM_ID: '7403', CLM_FROM_DT: 'never' }]),
    ]);
    assert.match(error.message, /^1 row rejected \(allowed: 0\); nothing was stored$/);
    assert.deepEqual(
      await db().selectFrom('fhir_resources').select(['id', 'body', 'source']).orderBy('id').execute(),
      before,
    );
    assert.deepEqual(await db().selectFrom('rif_beneficiaries').selectAll().execute(), beneficiaries);
    assert.deepEqual(
      await db().selectFrom('rif_beneficiary_history').selectAll().orderBy('seq').execute(),
      history,
    );
    assert.equal(paid((await body('ExplanationOfBenefit', 'carrier-7401'))!.json), 1);
  });

  test('a claim no EOB can be made of refuses its record; the others are stored', async () => {
    // FINAL_ACTION is not one the reader requires, but the claim's status is made of it: empty, the
    // transform refuses the claim.
    const path = file('sample-a-bcarrier.txt', [
      { CLM_ID: '7501' },
      { CLM_ID: '7502', LINE_NUM: '1', FINAL_ACTION: '' },
      { CLM_ID: '7502', LINE_NUM: '2', FINAL_ACTION: '' },
    ]);
    const name = path.split('/').pop();
    const summary = await load([path], { allowRejects: 2 });
    assert.deepEqual(rejectLines(summary), [
      `${name}:3: no ExplanationOfBenefit could be made of carrier-7502: RIF column FINAL_ACTION is empty`,
      `${name}:4: CLM_ID 7502 (lines 3-4) is not stored: line 3 is refused`,
    ]);
    assert.equal(summary.stored, 1);
    assert.ok(await body('ExplanationOfBenefit', 'carrier-7501'));
    assert.equal(await body('ExplanationOfBenefit', 'carrier-7502'), undefined);
  });

  test('files that are not RIF files of a known type are refused by name', async () => {
    const other = suite.lines('providers.txt', ['NPI|NAME|CITY', '1234567890|A|B']);
    assert.equal(
      (await failed([other])).message,
      `${other}: not a RIF file: its header (NPI|NAME|CITY) names no RIF record type (beneficiary, ` +
        'beneficiary history, MBI history, carrier, DME, HHA, hospice, inpatient, outpatient, SNF or Part D ' +
        'event); nothing was stored',
    );
    const { header, row } = sampleRow('sample-a-bcarrier.txt');
    const kept = header.filter((h) => h !== 'CLM_THRU_DT' && h !== 'DML_IND');
    const partial = suite.lines('partial.txt', [kept.join('|'), kept.map((h) => row[h]).join('|')]);
    assert.equal(
      (await failed([partial])).message,
      `${partial}: not a carrier RIF file: missing columns "DML_IND", "CLM_THRU_DT"; nothing was stored`,
    );
    const empty = suite.lines('empty.txt', [header.join('|')]);
    assert.match((await failed([empty])).message, /^no data rows in .*empty\.txt; nothing was stored$/);
  });

  test('names come from the NPPES and NUCC tables the plan API loads, per batch', async () => {
    await db()
      .insertInto('providers')
      .values({
        npi: '8888888888',
        type: 'Individual',
        name: 'ROBERT BISBEE, MD',
        gender: null,
        taxonomy: '207T00000X',
        taxonomies: '["207T00000X"]',
        street_1: '',
        street_2: '',
        city: '',
        state: '',
        zip: '',
        phone: '',
      })
      .execute();
    await db()
      .insertInto('provider_taxonomies')
      .values({
        code: '207T00000X',
        classification: 'Neurological Surgery',
        specialization: '',
        display_name: 'Neurological Surgery Physician',
      })
      .execute();
    /** The referring physician of a stored claim, as its EOB's care team names them. */
    const referrer = async (id: string) =>
      (await body('ExplanationOfBenefit', id))!.json.careTeam?.find(
        (member) => (member.provider as { identifier?: Identifier }).identifier?.value === '8888888888',
      );
    const named = {
      sequence: 1,
      provider: {
        identifier: {
          type: {
            coding: [
              {
                system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBIdentifierType',
                code: 'npi',
                display: 'National Provider Identifier',
              },
            ],
          },
          value: '8888888888',
        },
        display: 'ROBERT BISBEE MD',
      },
      role: {
        coding: [
          {
            system: 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBClaimCareTeamRole',
            code: 'referring',
            display: 'Referring',
          },
        ],
      },
      qualification: {
        coding: [
          {
            system: 'http://nucc.org/provider-taxonomy',
            code: '207T00000X',
            display: 'Neurological Surgery Physician',
          },
        ],
      },
    };
    let asked: string[] = [];
    const summary = await runIngest(
      rifKind({
        lookups: async (trx, npis) => {
          asked = [...npis].sort();
          return storedLookups(trx, npis);
        },
      }),
      [file('sample-a-bcarrier.txt', [{ CLM_ID: '7601', RFR_PHYSN_NPI: '8888888888' }])],
      db(),
      { now: Date.now() },
    );
    assert.equal(summary.stored, 1);
    // RFR_PHYSN_NPI, CARR_CLM_BLG_NPI_NUM, PRF_PHYSN_NPI and ORG_NPI_NUM of the sample's line.
    assert.deepEqual(asked, ['0000000000', '1234567890', '1923124', '8888888888']);
    assert.deepEqual(await referrer('carrier-7601'), named);
  });
});

describe('openenroll ingest rif (the CLI)', () => {
  const suite = ingestSuite('rif-cli');
  let database: TestDatabase;
  before(async () => {
    database = createTestDatabase();
    await (await database.open()).close();
  });
  after(() => database.drop());
  const cli = (args: string[]) => runCli(database.processUrl, args);

  test('--json prints the summary', async () => {
    const path = suite.lines(
      'history.txt',
      rifText('sample-a-beneficiaryhistory.txt', [{ BENE_ID: '-4301' }]),
    );
    const result = await cli(['ingest', 'rif', path, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout.trim().split('\n')[0]!) as Record<string, unknown>;
    assert.deepEqual(
      [summary.kind, summary.files, summary.read, summary.stored, summary.rejectedCount],
      ['rif', [path], 1, 0, 0],
    );
  });

  test('a refused line is printed as file:line and the load stores nothing', async () => {
    const path = suite.lines('bad.txt', rifText('sample-a-bcarrier.txt', [{ CLM_FROM_DT: '1999-10-27' }]));
    const result = await cli(['ingest', 'rif', path]);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'rif: read 1 rows, wrote 0 table rows, rejected 1',
      `  rejected ${path}:2: CLM_FROM_DT "1999-10-27" is not a date (DD-MON-YYYY or YYYYMMDD)`,
    ]);
    assert.match(result.stderr, /openenroll: rif: 1 row rejected \(allowed: 0\); nothing was stored/);
    const json = await cli(['ingest', 'rif', path, '--json']);
    const failure = JSON.parse(json.stdout) as { error: string; rejected: { line: number }[] };
    assert.equal(failure.error, '1 row rejected (allowed: 0); nothing was stored');
    assert.deepEqual(
      failure.rejected.map((r) => r.line),
      [2],
    );
  });
});
