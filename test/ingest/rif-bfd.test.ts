import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { memberIdentifier } from '../../src/fhir/bfd/coverage.js';
import { conformToCarin } from '../../src/fhir/bfd/carin-conformance.js';
import { withoutTaxNumbers } from '../../src/fhir/bfd/professional.js';
import { isSamhsa } from '../../src/fhir/bfd/samhsa.js';
import { runIngest } from '../../src/ingest/engine/run.js';
import { rifKind } from '../../src/ingest/rif/kind.js';
import {
  BFD_FIXTURES,
  bfdResponse,
  fhirDifferences,
  fixtureLookups,
  servedBody,
  servedResources,
} from '../helpers/bfd.js';
import { ingestSuite } from '../helpers/ingest-suite.js';

// BFD's sample RIF records loaded end to end with the transforms of src/fhir/bfd/ and the names BFD's
// tests look up: each stored resource must be BFD's published answer for it (test/fixtures/bfd/).

type Json = Record<string, unknown>;

const rif = (...names: string[]) => names.map((n) => join(BFD_FIXTURES, 'rif', n));

/** BFD's sample group A (its StaticRifResourceGroup.SAMPLE_A), with `claims` for its carrier file. */
const sampleA = (carrier = 'sample-a-bcarrier.txt', beneficiaries = 'sample-a-beneficiaries.txt') =>
  rif(
    beneficiaries,
    'sample-a-beneficiaryhistory.txt',
    carrier,
    'sample-a-pde.txt',
    'sample-a-inpatient.txt',
    'sample-a-outpatient.txt',
    'sample-a-hha.txt',
    'sample-a-hospice.txt',
    'sample-a-snf.txt',
    'sample-a-dme.txt',
  );

/** A suite that loads `files` once, and reads what was stored. */
function loaded(prefix: string, files: string[]) {
  const suite = ingestSuite(prefix);
  let done: Promise<void> | undefined;
  const load = () =>
    (done ??= runIngest(rifKind({ lookups: async () => fixtureLookups() }), files, suite.storage.db, {
      now: Date.now(),
    }).then((summary) => assert.equal(summary.rejectedCount, 0, JSON.stringify(summary.rejected))));
  /**
   * The resource as served (with `taxNumbers`, as served to `IncludeTaxNumbers: true`), without the version
   * our store adds (BFD's answers carry none).
   */
  const stored = async (type: string, id: string, taxNumbers = false): Promise<Json | undefined> => {
    await load();
    const served = await servedBody(suite.storage.db, type, id, taxNumbers);
    if (served === undefined) return undefined;
    const body = JSON.parse(served) as Json & { meta: Json };
    delete body.meta.versionId;
    return body;
  };
  return { suite, load, stored };
}

/**
 * What BFD answers without request headers, made of what we store (src/fhir/bfd/ keeps one body per
 * resource): a carrier or DME claim less its lines' tax numbers (checked to be none: the stored body is BFD's
 * default answer), a
 * Coverage less the CARIN member identifier we add (checked first), a Patient's identifiers in the order
 * BFD's own comparison sorts them (system, then value).
 */
function asServed(stored: Json): Json {
  if (stored.resourceType === 'ExplanationOfBenefit' && /^(carrier|dme)-/.test(String(stored.id)))
    assert.deepEqual(withoutTaxNumbers(stored), stored, 'no tax numbers without IncludeTaxNumbers');
  if (stored.resourceType === 'Coverage') {
    const { identifier, ...rest } = stored;
    assert.deepEqual(identifier, [memberIdentifier(String(stored.subscriberId))], String(stored.id));
    return rest;
  }
  if (stored.resourceType === 'Patient') {
    const key = (i: Json) => `${String(i.system)}\u0000${String(i.value)}`;
    const identifier = [...(stored.identifier as Json[])].sort((a, b) => key(a).localeCompare(key(b)));
    return { ...stored, identifier };
  }
  return stored;
}

/**
 * Asserts the stored resource is BFD's answer (a resource, or the bundle entry with its id) with the changes
 * CARIN needs applied to it (conformToCarin, docs/claims-rif.md#carin; the differences themselves are pinned
 * in test/fhir/bfd/carin-conformance.test.ts): as served without headers, or, `taxNumbers`, as served to
 * `IncludeTaxNumbers: true`.
 */
async function matches(
  stored: (type: string, id: string, taxNumbers?: boolean) => Promise<Json | undefined>,
  answer: string,
  id?: string,
  taxNumbers = false,
): Promise<void> {
  let expected = bfdResponse(answer);
  if (expected.resourceType === 'Bundle') {
    const entry = (expected.entry as { resource: Json }[]).find((e) => e.resource.id === id);
    assert.ok(entry, `${answer} has ${id}`);
    expected = entry.resource;
  }
  expected = conformToCarin(expected);
  const ours = await stored(String(expected.resourceType), String(expected.id), taxNumbers);
  assert.ok(ours, `${expected.resourceType}/${expected.id} is stored`);
  assert.deepEqual(fhirDifferences(expected, taxNumbers ? ours : asServed(ours)), []);
}

describe('ingest rif: BFD sample A as BFD serves it', () => {
  const { stored } = loaded('rif-bfd-a', sampleA());
  const reads: [string, string][] = [
    ['eobReadCarrier.json', 'carrier-9991831999'],
    ['eobReadDme.json', 'dme-2188888888'],
    ['eobReadHha.json', 'hha-2925555555'],
    ['eobReadHospice.json', 'hospice-9992223422'],
    ['eobReadInpatient.json', 'inpatient-333333222222'],
    ['eobReadOutpatient.json', 'outpatient-1234567890'],
    ['eobReadPde.json', 'pde-89'],
    ['eobReadSnf.json', 'snf-777777777'],
  ];
  for (const [answer, id] of reads) {
    test(`${answer}: ExplanationOfBenefit/${id}`, () => matches(stored, answer, id));
    test(`eobByPatientIdAll.json: ${id}`, () => matches(stored, 'eobByPatientIdAll.json', id));
  }
  test('eobReadCarrierWithTaxNumbers.json: the carrier claim with IncludeTaxNumbers: true', () =>
    matches(stored, 'eobReadCarrierWithTaxNumbers.json', undefined, true));
  test('eobReadDmeWithTaxNumbers.json: the DME claim with IncludeTaxNumbers: true', () =>
    matches(stored, 'eobReadDmeWithTaxNumbers.json', undefined, true));
  test('patientRead.json: Patient/567834', () => matches(stored, 'patientRead.json'));
  test('coverageRead.json: Coverage/part-a-567834', () => matches(stored, 'coverageRead.json'));
  for (const part of ['a', 'b', 'c', 'd']) {
    test(`coverageSearchByPatientId.json: part-${part}-567834`, () =>
      matches(stored, 'coverageSearchByPatientId.json', `part-${part}-567834`));
  }
});

describe('ingest rif: BFD sample A with a multi-line carrier claim', () => {
  const { stored } = loaded('rif-bfd-lines', sampleA('sample-a-bcarrier-multiple-lines.txt'));
  test('eobReadCarrierWithMultipleLines.json', () => matches(stored, 'eobReadCarrierWithMultipleLines.json'));
});

describe('ingest rif: BFD sample A without a reference year', () => {
  const { stored } = loaded(
    'rif-bfd-no-year',
    sampleA('sample-a-bcarrier.txt', 'sample-a-beneficiaries-without-reference-year.txt'),
  );
  for (const part of ['a', 'b', 'c', 'd']) {
    test(`coverageSearchByPatientIdWithoutReferenceYear.json: part-${part}-567834`, async () => {
      const bundle = bfdResponse('coverageSearchByPatientIdWithoutReferenceYear.json');
      const ids = (bundle.entry as { resource: Json }[]).map((e) => e.resource.id);
      if (!ids.includes(`part-${part}-567834`)) return;
      await matches(stored, 'coverageSearchByPatientIdWithoutReferenceYear.json', `part-${part}-567834`);
    });
  }
});

describe("ingest rif: BFD's SAMHSA samples are marked", () => {
  const samhsa = [
    'samhsa/sample-a-carrier.txt',
    'samhsa/sample-a-dme.txt',
    'samhsa/sample-a-hha.txt',
    'samhsa/sample-a-hospice.txt',
    'samhsa/sample-a-inpatient.txt',
    'samhsa/sample-a-outpatient.txt',
    'samhsa/sample-a-snf.txt',
  ];
  const { suite, load } = loaded(
    'rif-bfd-samhsa',
    rif('sample-a-beneficiaries.txt', 'sample-a-pde.txt', ...samhsa),
  );
  test('each EOB carries the mark of its own codes (BFD rule, fhir/bfd/samhsa.ts)', async () => {
    await load();
    const rows = await suite.storage.db
      .selectFrom('fhir_resources')
      .select(['id', 'samhsa'])
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .execute();
    assert.ok(rows.length > 1000);
    // The mark is computed at load from the claim's rows; the served resource must agree with it.
    const served = new Map(
      (await servedResources(suite.storage.db, 'ExplanationOfBenefit')).map((r) => [r.id, r.body]),
    );
    for (const row of rows)
      assert.equal(Number(row.samhsa), isSamhsa(JSON.parse(served.get(row.id)!) as Json) ? 1 : 0, row.id);
    const marked = rows.filter((r) => Number(r.samhsa) === 1).map((r) => r.id.split('-')[0]);
    assert.deepEqual(
      new Set(marked),
      new Set(['carrier', 'dme', 'hha', 'hospice', 'inpatient', 'outpatient', 'snf']),
    );
    assert.equal(Number(rows.find((r) => r.id === 'pde-89')!.samhsa), 0);
  });
});

describe('ingest rif: a claim is stored as its rows and made into its resource at its first read', () => {
  const suite = ingestSuite('rif-bfd-source');
  const db = () => suite.storage.db;
  const row = (id: string) =>
    db()
      .selectFrom('fhir_resources')
      .select(['body', 'source'])
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  test('the load stores rows; the first read stores the resource, later reads serve it as stored', async () => {
    const summary = await runIngest(
      rifKind({ lookups: async () => fixtureLookups() }),
      rif('sample-a-beneficiaries.txt', 'sample-a-bcarrier.txt', 'sample-a-pde.txt'),
      db(),
      { now: Date.now() },
    );
    assert.equal(summary.rejectedCount, 0);
    const loaded = await row('carrier-9991831999');
    assert.equal(loaded.body, '');
    const source = JSON.parse(loaded.source!) as { meta: Json; layout: string; rows: string[][] };
    assert.deepEqual(source.meta, { versionId: '1' });
    assert.equal(source.rows.length, 1);
    const layout = await db()
      .selectFrom('rif_layouts')
      .selectAll()
      .where('id', '=', source.layout)
      .executeTakeFirstOrThrow();
    assert.equal(layout.record_type, 'carrier');
    assert.equal((JSON.parse(layout.columns) as string[]).length, source.rows[0]!.length);

    const first = await servedBody(db(), 'ExplanationOfBenefit', 'carrier-9991831999');
    assert.ok(first?.startsWith('{"resourceType":"ExplanationOfBenefit","id":"carrier-9991831999"'));
    assert.equal((await row('carrier-9991831999')).body, first, 'the first read stored what it made');
    assert.equal(await servedBody(db(), 'ExplanationOfBenefit', 'carrier-9991831999'), first);
    assert.equal((await row('pde-89')).body, '', 'a claim not read yet keeps only its rows');
    // The names looked up at load are kept with the claim: the prescriber's, from BFD's NPI data.
    assert.match((await servedBody(db(), 'ExplanationOfBenefit', 'pde-89'))!, /"DR. ROBERT BISBEE MD"/);
  });
});
