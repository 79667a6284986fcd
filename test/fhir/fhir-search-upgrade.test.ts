import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dayRangeMatch, parseDateSearch } from '../../src/fhir/date-search.js';
import { createFhirStore } from '../../src/fhir/store/resources.js';
import { rifClaimSources } from '../../src/fhir/bfd/claim-source.js';
import { migrate, type Storage } from '../../src/storage/connect.js';
import { migrateBefore } from '../helpers/migrations.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';

/**
 * Upgrade to 0014-fhir-search-values: EOBs stored before it get their identifier and date rows, and their
 * `service_date` moves from the billable period's start to its end (docs/decisions.md#fhir-search).
 */

let database: TestDatabase;
let storage: Storage;

const eob = (
  id: string,
  extra: { billablePeriod: { start: string; end?: string } } & Record<string, unknown>,
) => ({
  resourceType: 'ExplanationOfBenefit',
  id,
  identifier: [{ system: 'https://example.org/claims', value: id }],
  patient: { reference: 'Patient/p1' },
  ...extra,
});

const STORED = [
  eob('carrier--1', {
    billablePeriod: { start: '2024-03-01', end: '2024-03-09' },
    item: [{ servicedDate: '2024-03-04' }, { servicedPeriod: { start: '2024-03-04' } }],
  }),
  eob('pde--2', { billablePeriod: { start: '2024-06' }, identifier: [{ value: 'x' }, { value: 'x' }] }),
  // Accepted before: an end that is no date; the start dates it.
  eob('carrier--3', {
    billablePeriod: { start: '2024-01-05', end: 'soon' },
    item: [{ servicedDate: '2024-02-30' }],
  }),
];

before(async () => {
  database = createTestDatabase();
  storage = await database.open();
  await migrateBefore(storage, '0014');
  await storage.db
    .insertInto('fhir_resources')
    .values([
      ...STORED.map((r) => ({
        resource_type: 'ExplanationOfBenefit',
        id: r.id,
        patient_id: 'p1',
        eob_type: r.id.split('--')[0]!,
        service_date: r.billablePeriod.start.slice(0, 10),
        last_updated: 1,
        body: JSON.stringify(r),
      })),
      {
        resource_type: 'Coverage',
        id: 'c1',
        patient_id: 'p1',
        eob_type: null,
        service_date: null,
        last_updated: 1,
        body: '{"resourceType":"Coverage","id":"c1","identifier":[{"value":"c1"}]}',
      },
    ])
    .execute();
  await migrate(storage);
});
after(async () => {
  await storage.close();
  await database.drop();
});

test('service_date moves to the billable period end (the start when the end is missing or unreadable)', async () => {
  const rows = await storage.db
    .selectFrom('fhir_resources')
    .select(['id', 'service_date'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { id: 'c1', service_date: null },
    { id: 'carrier--1', service_date: '2024-03-09' },
    { id: 'carrier--3', service_date: '2024-01-05' },
    { id: 'pde--2', service_date: '2024-06' },
  ]);
});

test('every stored EOB has its identifier and date rows, each once; other types none', async () => {
  const tokens = await storage.db
    .selectFrom('fhir_search_tokens')
    .select(['id', 'system', 'value'])
    .orderBy('id')
    .execute();
  assert.deepEqual(tokens, [
    { id: 'carrier--1', system: 'https://example.org/claims', value: 'carrier--1' },
    { id: 'carrier--3', system: 'https://example.org/claims', value: 'carrier--3' },
    { id: 'pde--2', system: '', value: 'x' },
  ]);
  const dates = await storage.db
    .selectFrom('fhir_search_dates')
    .select(['id', 'param', 'first_day', 'last_day'])
    .orderBy('id')
    .orderBy('param')
    .orderBy('first_day')
    .execute();
  assert.deepEqual(dates, [
    { id: 'carrier--1', param: 'billable-period-start', first_day: '2024-03-01', last_day: '2024-03-01' },
    { id: 'carrier--1', param: 'service-start-date', first_day: '2024-03-01', last_day: '2024-03-01' },
    { id: 'carrier--1', param: 'service-start-date', first_day: '2024-03-04', last_day: '2024-03-04' },
    { id: 'carrier--3', param: 'billable-period-start', first_day: '2024-01-05', last_day: '2024-01-05' },
    { id: 'carrier--3', param: 'service-start-date', first_day: '2024-01-05', last_day: '2024-01-05' },
    { id: 'pde--2', param: 'billable-period-start', first_day: '2024-06-01', last_day: '2024-06-30' },
    { id: 'pde--2', param: 'service-start-date', first_day: '2024-06-01', last_day: '2024-06-30' },
  ]);
});

test('the upgraded rows answer searches', async () => {
  const value = parseDateSearch('ge2024-03-04');
  assert.ok(value.ok);
  const found = await createFhirStore(storage.db, rifClaimSources).search({
    resourceType: 'ExplanationOfBenefit',
    patientId: 'p1',
    lastUpdated: [],
    serviceDate: [],
    dates: [{ param: 'service-start-date', match: dayRangeMatch(value.value) }],
    tokens: [
      {
        param: 'identifier',
        alternatives: [
          { system: undefined, code: 'carrier--1' },
          { system: null, code: 'x' },
        ],
      },
    ],
    offset: 0,
    limit: 10,
  });
  assert.equal(found.total, 2);
  assert.deepEqual(
    found.bodies.map((b) => b.id),
    ['carrier--1', 'pde--2'],
  );
});
