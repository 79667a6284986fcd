import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withoutTaxNumbers } from '../../src/fhir/bfd/professional.js';
import { eobSearchFacts } from '../../src/fhir/validate.js';
import { importFhir } from '../../src/ingest/fhir.js';
import { bfdResponse, fhirDifferences } from '../helpers/bfd.js';
import { carinResources, skipWithoutCarinPackage } from '../helpers/carin-validator.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { enrollee, issueTokens, type TokenBody } from '../helpers/token-calls.js';

/**
 * The ExplanationOfBenefit, Coverage and Patient searches Blue Button 2.0 and CARIN BB 2.0.0 define, over
 * claims of known dates imported as CARIN NDJSON (docs/decisions.md#fhir-search): `_id`, `identifier`,
 * `service-date` (the claim's through date), `service-start-date` (any of billablePeriod.start,
 * item.servicedDate, item.servicedPeriod.start), `billable-period-start`, `excludeSAMHSA`, the
 * `IncludeTaxNumbers` header, `_include:iterate`, their totals and paging links, and the CapabilityStatement.
 */

type Json = Record<string, unknown>;
interface Bundle {
  total: number;
  link: { relation: string; url: string }[];
  entry?: {
    fullUrl: string;
    resource: Json & { id: string; resourceType: string };
    search: { mode: string };
  }[];
}

const PID = enrollee(0).patientId;
const OTHER = enrollee(1).patientId;
const CLM = 'https://bluebutton.cms.gov/resources/variables/clm_id';
const GROUP = 'https://bluebutton.cms.gov/resources/identifier/claim-group';
const ELSEWHERE = 'https://payer.example/claims';
const EOB_TYPE = 'https://bluebutton.cms.gov/resources/codesystem/eob-type';
const COVERAGE = `test-cov--${PID}`;

let running: RunningService;
let tokens: TokenBody;
let dir: string;

interface EobSpec {
  id: string;
  patient?: string;
  period: { start: string; end?: string };
  items?: Json[];
  identifier: { system?: string; value: string }[];
  diagnosis?: Json[];
}

/** A minimal ExplanationOfBenefit the import accepts (no C4BB profile claimed: no profile checks). */
function eob({ id, patient = PID, period, items, identifier, diagnosis }: EobSpec): Json {
  const claimType = id.split('--')[0]!.toUpperCase();
  return {
    resourceType: 'ExplanationOfBenefit',
    id,
    identifier,
    status: 'active',
    type: { coding: [{ system: EOB_TYPE, code: claimType }] },
    use: 'claim',
    patient: { reference: `Patient/${patient}` },
    billablePeriod: period,
    created: '2025-01-10T00:00:00Z',
    insurer: { identifier: { value: 'CMS' } },
    provider: { identifier: { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567890' } },
    outcome: 'complete',
    ...(diagnosis && { diagnosis }),
    insurance: [{ focal: true, coverage: { reference: `Coverage/test-cov--${patient}` } }],
    ...(items && { item: items.map((item, i) => ({ sequence: i + 1, ...item })) }),
    total: [{ category: { coding: [{ code: 'submitted' }] }, amount: { value: 10, currency: 'USD' } }],
  };
}

/**
 * The patient's claims. Service-start dates: 1 — 2024-01-10, 2024-02-05; 2 — 2024-03-01, 2024-03-02;
 * 3 — June 2024 (a month-precision billable period start), 2024-06-15; 4 — 2023-12-30 (SAMHSA-coded);
 * 5 — 2022-05-01, 2024-07-04; 6…12 — 2021-01-01 … 2021-07-01. Through dates (service-date): 1 —
 * 2024-01-20, 2 — 2024-03-15, 4 — 2024-01-02, 5 — 2022-05-01, 6…12 — as their starts.
 */
const EOBS: EobSpec[] = [
  {
    id: 'carrier--1',
    period: { start: '2024-01-10', end: '2024-01-20' },
    items: [{ servicedDate: '2024-01-10' }, { servicedDate: '2024-02-05' }],
    identifier: [
      { system: CLM, value: '1001' },
      { system: GROUP, value: '900' },
    ],
  },
  {
    id: 'inpatient--2',
    period: { start: '2024-03-01', end: '2024-03-15' },
    items: [{ servicedPeriod: { start: '2024-03-02', end: '2024-03-05' } }],
    identifier: [
      { system: CLM, value: '1002' },
      { system: GROUP, value: '900' },
    ],
  },
  {
    id: 'pde--3',
    period: { start: '2024-06' },
    items: [{ servicedDate: '2024-06-15' }],
    identifier: [{ value: '1003' }],
  },
  {
    id: 'outpatient--4',
    period: { start: '2023-12-30', end: '2024-01-02' },
    identifier: [{ system: CLM, value: '1004' }],
    diagnosis: [
      {
        sequence: 1,
        diagnosisCodeableConcept: {
          coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'F10.20' }],
        },
      },
    ],
  },
  {
    id: 'carrier--5',
    period: { start: '2022-05-01', end: '2022-05-01' },
    items: [{ servicedDate: '2024-07-04' }],
    identifier: [{ system: ELSEWHERE, value: '1001' }],
  },
  ...[1, 2, 3, 4, 5, 6, 7].map((month) => ({
    id: `carrier--${month + 5}`,
    period: { start: `2021-0${month}-01`, end: `2021-0${month}-01` },
    identifier: [{ system: CLM, value: `20${month}` }],
  })),
];
const ALL = EOBS.map((e) => e.id);
const n = (...numbers: number[]) => numbers.map((k) => ALL.find((id) => id.endsWith(`--${k}`))!);
const OLD = n(6, 7, 8, 9, 10, 11, 12);

/** BFD's carrier answer with tax numbers, as the RIF ingest stores it, moved to this patient. */
function bfdCarrier(name: string): Json {
  const body = bfdResponse(name);
  return {
    ...body,
    id: 'carrier-9991831999',
    meta: { profile: (body.meta as { profile: string[] }).profile },
    patient: { reference: `Patient/${PID}` },
    created: '2025-01-10T00:00:00Z',
    insurance: [{ focal: true, coverage: { reference: `Coverage/${COVERAGE}` } }],
  };
}

before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '2' });
  tokens = await issueTokens(running, await createTestApp(running), { enrollee: 0 });
  // Only the claims written here: the sandbox's own are removed.
  const { db } = running.service.storage;
  await db.deleteFrom('fhir_resources').where('resource_type', '=', 'ExplanationOfBenefit').execute();
  await db.deleteFrom('fhir_search_tokens').execute();
  await db.deleteFrom('fhir_search_dates').execute();
  dir = mkdtempSync(join(tmpdir(), 'openenroll-bb2-search-'));
  const file = join(dir, 'claims.ndjson');
  const resources = [
    { resourceType: 'Organization', id: 'test-payor', name: 'Test Payor' },
    ...[PID, OTHER].map((patient) => ({
      resourceType: 'Coverage',
      id: `test-cov--${patient}`,
      status: 'active',
      beneficiary: { reference: `Patient/${patient}` },
      payor: [{ reference: 'Organization/test-payor' }],
    })),
    ...EOBS.map(eob),
    eob({
      id: 'carrier--99',
      patient: OTHER,
      period: { start: '2024-01-10' },
      identifier: [{ value: '1001' }],
    }),
  ];
  writeFileSync(file, resources.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const stores = { fhir: running.service.fhir.fhir, enrollees: running.service.deps.enrollees };
  await importFhir([file], stores, running.clock.now());
  // A carrier claim of BFD's shape, written as the RIF ingest writes it (its tax numbers kept).
  const carrier = bfdCarrier('eobReadCarrierWithTaxNumbers.json');
  await running.service.fhir.fhir.importAll((writer) =>
    writer.upsert([
      {
        resourceType: 'ExplanationOfBenefit',
        id: carrier.id as string,
        patientId: PID,
        eobType: 'carrier',
        lastUpdated: running.clock.now(),
        body: JSON.stringify({ ...carrier, meta: { ...(carrier.meta as Json), versionId: '1' } }),
        ...eobSearchFacts(carrier),
      },
    ]),
  );
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await running.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}${path.replace(/^https?:\/\/[^/]+/, '')}`, {
    headers: { authorization: `Bearer ${tokens.access_token}`, ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
}

async function search(path: string, headers: Record<string, string> = {}): Promise<Bundle> {
  const answer = await get(path, headers);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return answer.json as Bundle;
}

const matchIds = (b: Bundle) =>
  (b.entry ?? []).filter((e) => e.search.mode === 'match').map((e) => e.resource.id);

/** The ids an EOB search of the test claims returns (the BFD-shaped carrier left out), sorted; total agrees. */
async function eobs(query: string): Promise<string[]> {
  const bundle = await search(`/v2/fhir/ExplanationOfBenefit?_count=50&${query}`);
  assert.equal(bundle.total, bundle.entry?.length ?? 0, `${query}: total counts the matches`);
  return matchIds(bundle)
    .filter((id) => id !== 'carrier-9991831999')
    .sort();
}
const sorted = (ids: string[]) => [...ids].sort();

describe('CARIN BB service-start-date: a claim matches when any of its dates does (FHIR R4 §3.1.1.5.6)', () => {
  const cases: [string, string[]][] = [
    // Within the value's range: a day, a month.
    ['2024-02-05', n(1)],
    ['eq2024-06', n(3)],
    ['2024-06-15', n(3)],
    // June 2024 as a whole is not within one day, and no claim has a date between its two dates.
    ['2024-06-10', []],
    ['eq2024-01-15', []],
    ['ge2024-07', n(5)],
    ['gt2024-06-30', n(5)],
    // The month-precision date reaches June 30.
    ['ge2024-06-30', n(3, 5)],
    ['lt2022', OLD],
    ['le2021-03', n(6, 7, 8)],
    ['lt2021-03', n(6, 7)],
    ['sa2024-06-14', n(3, 5)],
    ['eb2022-06', [...n(5), ...OLD]],
    ['ne2024', [...n(4, 5), ...OLD]],
    ['ge2024-03-02T00:00:00Z', n(2, 3, 5)],
    [`le${encodeURIComponent('2021-01-01T10:00:00+05:00')}`, n(6)],
  ];
  for (const [value, expected] of cases) {
    test(`service-start-date=${decodeURIComponent(value)}`, async () => {
      assert.deepEqual(await eobs(`service-start-date=${value}`), sorted(expected));
    });
  }

  test('repeated, each value applies on its own: two dates of one claim may satisfy the two', async () => {
    assert.deepEqual(
      await eobs('service-start-date=ge2024-01&service-start-date=lt2024-02'),
      sorted(n(1, 5)),
    );
    assert.deepEqual(await eobs('service-start-date=ge2024-01&service-start-date=lt2023'), sorted(n(5)));
  });

  test('the BFD-shaped claim is found by its line dates too', async () => {
    const bundle = await search('/v2/fhir/ExplanationOfBenefit?service-start-date=1999-10-27');
    assert.deepEqual(matchIds(bundle), ['carrier-9991831999']);
  });
});

describe('CARIN BB billable-period-start: billablePeriod.start only', () => {
  const cases: [string, string[]][] = [
    ['2024-01-10', n(1)],
    ['2024-02-05', []],
    ['2024-06', n(3)],
    ['eq2024-06-15', []],
    ['ge2024-06-15', n(3)],
    ['lt2023', [...n(5), ...OLD]],
    ['gt2024-03-01', n(3)],
    ['ne2024-03-01', sorted(ALL.filter((id) => id !== n(2)[0]))],
  ];
  for (const [value, expected] of cases) {
    test(`billable-period-start=${value}`, async () => {
      assert.deepEqual(await eobs(`billable-period-start=${value}`), sorted(expected));
    });
  }

  test('with service-start-date: both apply', async () => {
    assert.deepEqual(await eobs('billable-period-start=lt2023&service-start-date=ge2024'), sorted(n(5)));
  });
});

describe('service-date is the claim’s through date (billablePeriod.end, else start), as BFD filters it', () => {
  test('the end date matches; the start of a longer claim no longer does', async () => {
    assert.deepEqual(await eobs('service-date=2024-01-20'), n(1));
    assert.deepEqual(await eobs('service-date=2024-01-10'), []);
    assert.deepEqual(await eobs('service-date=2024-03-15'), n(2));
  });

  test('an interval takes the claims that ended in it (the outpatient claim began in 2023)', async () => {
    assert.deepEqual(await eobs('service-date=ge2024-01-01&service-date=le2024-01-31'), sorted(n(1, 4)));
  });

  test('a claim without an end is dated by its start', async () => {
    assert.deepEqual(await eobs('service-date=2021-04-01'), n(9));
  });

  test('the new date parameters refuse bad values in the same words as service-date', async () => {
    for (const name of ['service-start-date', 'billable-period-start']) {
      for (const [value, detail] of [
        ['ge2023-02-29', `the ${name} value is not a valid date`],
        ['gefoo', `the ${name} value is not a valid date`],
        ['ap2024', `the ${name} operator is not valid`],
        ['xx2024-01-01', `the ${name} operator is not valid`],
      ] as const) {
        const answer = await get(`/v2/fhir/ExplanationOfBenefit?${name}=${value}`);
        assert.equal(answer.status, 400, `${name}=${value}`);
        assert.deepEqual(answer.json, { detail }, `${name}=${value}`);
      }
    }
  });
});

describe('CARIN BB identifier: token search on ExplanationOfBenefit.identifier, exact', () => {
  const cases: [string, string[]][] = [
    ['1001', n(1, 5)],
    [`${CLM}|1001`, n(1)],
    [`${ELSEWHERE}|1001`, n(5)],
    ['|1003', n(3)],
    ['|1001', []],
    [`${GROUP}|`, n(1, 2)],
    [`${CLM}|1002,${CLM}|1004`, n(2, 4)],
    ['nope,1003', n(3)],
    [`${CLM}|100`, []],
    [`${CLM.toUpperCase()}|1001`, []],
  ];
  for (const [value, expected] of cases) {
    test(`identifier=${value}`, async () => {
      assert.deepEqual(await eobs(`identifier=${encodeURIComponent(value)}`), sorted(expected));
    });
  }

  test('repeated, every value applies; another patient’s claim of the same number is never found', async () => {
    assert.deepEqual(
      await eobs(
        `identifier=${encodeURIComponent(`${GROUP}|900`)}&identifier=${encodeURIComponent(`${CLM}|1002`)}`,
      ),
      n(2),
    );
    assert.ok(!(await eobs('identifier=1001')).includes('carrier--99'));
  });
});

describe('_id on ExplanationOfBenefit and Coverage: a comma list; repeated, every one applies', () => {
  test('EOB: any of a list; two lists intersect; another patient’s id finds nothing', async () => {
    assert.deepEqual(await eobs('_id=carrier--1,pde--3'), sorted(n(1, 3)));
    assert.deepEqual(await eobs('_id=carrier--1&_id=pde--3'), []);
    assert.deepEqual(await eobs('_id=carrier--1&_id=pde--3,carrier--1'), n(1));
    assert.deepEqual(await eobs('_id=carrier--99'), []);
    assert.deepEqual(await eobs('_id=carrier--1,carrier--99,nope'), n(1));
    assert.deepEqual(await eobs('_id=pde--3&type=carrier'), []);
    assert.deepEqual(await eobs('_id=pde--3,carrier--1&type=pde'), n(3));
  });

  test('Coverage: the own Coverage by id; another patient’s or an unknown id finds nothing', async () => {
    const ids = async (query: string) => matchIds(await search(`/v2/fhir/Coverage?${query}`)).sort();
    assert.deepEqual(await ids(`_id=${COVERAGE}`), [COVERAGE]);
    assert.deepEqual(await ids(`_id=nope,${COVERAGE}`), [COVERAGE]);
    assert.deepEqual(await ids(`_id=test-cov--${OTHER}`), []);
    assert.deepEqual(await ids(`_id=${COVERAGE}&_id=nope`), []);
    const bundle = await search(`/v2/fhir/Coverage?_id=${COVERAGE}`);
    assert.equal(bundle.total, 1);
    assert.equal(new URL(bundle.link[0]!.url).searchParams.get('_id'), COVERAGE);
  });

  test('Patient _id stays the subject check: the own id, another is 404', async () => {
    assert.deepEqual(matchIds(await search(`/v2/fhir/Patient?_id=${PID}`)), [PID]);
    assert.equal((await get(`/v2/fhir/Patient?_id=${OTHER}`)).status, 404);
  });
});

describe('excludeSAMHSA=true leaves out the claims marked sensitive (BFD’s rule, set on CARIN NDJSON import)', () => {
  test('the import marked the SAMHSA-coded claim, and only it', async () => {
    const rows = await running.service.storage.db
      .selectFrom('fhir_resources')
      .select('id')
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .where('samhsa', '=', 1)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.id),
      n(4),
    );
  });

  test('true (any case) drops it from the page and the total; another value filters nothing', async () => {
    const everything = await eobs('');
    assert.ok(everything.includes(n(4)[0]!));
    for (const value of ['true', 'TRUE', 'True']) {
      assert.deepEqual(
        await eobs(`excludeSAMHSA=${value}`),
        everything.filter((id) => id !== n(4)[0]),
      );
    }
    for (const value of ['false', 'yes', '']) {
      assert.deepEqual(await eobs(`excludeSAMHSA=${value}`), everything, value);
    }
  });

  test('with other filters: service-date, type, _id', async () => {
    const q = 'service-date=ge2024-01-01&service-date=le2024-01-31';
    assert.deepEqual(await eobs(`${q}&excludeSAMHSA=true`), n(1));
    assert.deepEqual(await eobs('type=outpatient&excludeSAMHSA=true'), []);
    assert.deepEqual(await eobs('_id=outpatient--4&excludeSAMHSA=true'), []);
  });
});

describe('totals and paging links with the new filters (FHIR R4 §3.1.1.6.3)', () => {
  test('service-start-date 2000–2021 in pages of 3: total 7, links carry the filter, pages in id order', async () => {
    const first = await search(
      '/v2/fhir/ExplanationOfBenefit?service-start-date=lt2022&service-start-date=ge2000&_count=3',
    );
    assert.equal(first.total, 7);
    const links = Object.fromEntries(first.link.map((l) => [l.relation, new URL(l.url)]));
    assert.deepEqual(Object.keys(links).sort(), ['first', 'last', 'next', 'self']);
    for (const url of Object.values(links)) {
      assert.deepEqual(url.searchParams.getAll('service-start-date'), ['lt2022', 'ge2000']);
      assert.equal(url.searchParams.get('_count'), '3');
    }
    assert.equal(links.next!.searchParams.get('startIndex'), '3');
    assert.equal(links.last!.searchParams.get('startIndex'), '6');
    const seen = [...matchIds(first)];
    const second = await search(links.next!.href);
    assert.equal(second.total, 7);
    seen.push(...matchIds(second));
    const last = await search(links.last!.href);
    assert.equal(matchIds(last).length, 1);
    seen.push(...matchIds(last));
    assert.deepEqual(seen, sorted(OLD));
  });

  test('every new filter is echoed in the links, as given', async () => {
    const query = new URLSearchParams([
      ['_id', 'carrier--1,inpatient--2'],
      ['identifier', `${GROUP}|900`],
      ['service-date', 'ge2024'],
      ['service-start-date', 'ge2024-01'],
      ['billable-period-start', 'lt2025'],
      ['excludeSAMHSA', 'true'],
      ['_include:iterate', 'Coverage:payor'],
      ['_count', '1'],
    ]);
    const bundle = await search(`/v2/fhir/ExplanationOfBenefit?${query.toString()}`);
    assert.equal(bundle.total, 2);
    assert.deepEqual(matchIds(bundle), n(1));
    const next = new URL(bundle.link.find((l) => l.relation === 'next')!.url);
    for (const [name, value] of query) {
      if (name !== '_count') assert.equal(next.searchParams.get(name), value, name);
    }
    assert.deepEqual(matchIds(await search(next.href)), n(2));
  });
});

describe('IncludeTaxNumbers: served without the tax numbers, made with them when the header says true', () => {
  const ID = 'carrier-9991831999';
  const expected = (name: string) => {
    const body = bfdCarrier(name);
    return { ...body, meta: { ...(body.meta as Json), versionId: '1' } };
  };

  test('a read without the header is BFD’s answer without tax numbers; with `true` BFD’s answer with them', async () => {
    const plain = await get(`/v2/fhir/ExplanationOfBenefit/${ID}`);
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(fhirDifferences(expected('eobReadCarrier.json'), plain.json), []);
    assert.ok(!plain.text.includes('tax_num'));
    assert.match(plain.headers.get('vary')!, /IncludeTaxNumbers/);
    for (const value of ['true', 'TRUE']) {
      const taxed = await get(`/v2/fhir/ExplanationOfBenefit/${ID}`, { IncludeTaxNumbers: value });
      assert.deepEqual(fhirDifferences(expected('eobReadCarrierWithTaxNumbers.json'), taxed.json), [], value);
    }
    const no = await get(`/v2/fhir/ExplanationOfBenefit/${ID}`, { IncludeTaxNumbers: 'false' });
    assert.deepEqual(no.json, plain.json);
    assert.equal(no.headers.get('etag'), plain.headers.get('etag'), 'one version, two forms');
  });

  test('searches strip them the same way, and pass other bodies on unchanged', async () => {
    const path = '/v2/fhir/ExplanationOfBenefit?_count=50';
    const plain = await search(path);
    const taxed = await search(path, { IncludeTaxNumbers: 'true' });
    const body = (b: Bundle, id: string) => b.entry!.find((e) => e.resource.id === id)!.resource;
    assert.deepEqual(body(plain, ID), withoutTaxNumbers(body(taxed, ID)));
    assert.deepEqual(fhirDifferences(expected('eobReadCarrierWithTaxNumbers.json'), body(taxed, ID)), []);
    assert.deepEqual(fhirDifferences(expected('eobReadCarrier.json'), body(plain, ID)), []);
    for (const id of ALL) assert.deepEqual(body(plain, id), body(taxed, id), id);
  });

  test('reads at once, with and without the header, each get their own form (batched on PostgreSQL)', async () => {
    // On PostgreSQL reads made at the same time share a statement and its rows (storage/batched-statements.ts);
    // a body made with tax numbers for one request must not reach another.
    const reads = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        get(`/v2/fhir/ExplanationOfBenefit/${ID}`, i % 2 ? { IncludeTaxNumbers: 'true' } : {}),
      ),
    );
    for (const [i, read] of reads.entries()) {
      assert.equal(read.status, 200, read.text);
      const form = i % 2 ? 'eobReadCarrierWithTaxNumbers.json' : 'eobReadCarrier.json';
      assert.deepEqual(fhirDifferences(expected(form), read.json), [], `read ${i}`);
    }
  });

  test('another value is 400 in BFD’s words; other types ignore the header', async () => {
    const answer = await get(`/v2/fhir/ExplanationOfBenefit/${ID}`, { IncludeTaxNumbers: 'maybe' });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, { detail: 'Unsupported IncludeTaxNumbers header value: [maybe]' });
    assert.equal((await get('/v2/fhir/ExplanationOfBenefit', { IncludeTaxNumbers: 'yes' })).status, 400);
    assert.equal((await get(`/v2/fhir/Coverage/${COVERAGE}`, { IncludeTaxNumbers: 'maybe' })).status, 200);
  });
});

describe('_include:iterate (FHIR R4 §3.1.1.5.5): includes followed from included resources too', () => {
  const includedRefs = (b: Bundle) =>
    (b.entry ?? [])
      .filter((e) => e.search.mode === 'include')
      .map((e) => `${e.resource.resourceType}/${e.resource.id}`);

  test('ExplanationOfBenefit:coverage, then Coverage:payor from the Coverages it brought', async () => {
    const base = '/v2/fhir/ExplanationOfBenefit?_id=carrier--1';
    assert.deepEqual(includedRefs(await search(`${base}&_include=ExplanationOfBenefit:coverage`)), [
      `Coverage/${COVERAGE}`,
    ]);
    for (const query of [
      '_include=ExplanationOfBenefit:coverage&_include:iterate=Coverage:payor',
      '_include:iterate=ExplanationOfBenefit:coverage&_include:iterate=Coverage:payor',
      '_include:iterate=ExplanationOfBenefit:coverage&_include:iterate=Coverage:*',
    ]) {
      const bundle = await search(`${base}&${query}`);
      assert.deepEqual(includedRefs(bundle), [`Coverage/${COVERAGE}`, 'Organization/test-payor'], query);
      assert.equal(bundle.total, 1, 'included resources are not counted');
    }
  });

  test('alone it follows nothing the matches do not bring; on a Coverage search it is _include', async () => {
    assert.deepEqual(
      includedRefs(
        await search('/v2/fhir/ExplanationOfBenefit?_id=carrier--1&_include:iterate=Coverage:payor'),
      ),
      [],
    );
    assert.deepEqual(
      includedRefs(await search(`/v2/fhir/Coverage?_id=${COVERAGE}&_include:iterate=Coverage:payor`)),
      ['Organization/test-payor'],
    );
  });

  test('each resource once across rounds; unknown values ignored and left out of the links', async () => {
    const bundle = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=50&_include=ExplanationOfBenefit:*' +
        '&_include:iterate=Coverage:payor&_include:iterate=Coverage:bogus&_include:iterate=Patient:*',
    );
    const refs = includedRefs(bundle);
    assert.equal(new Set(refs).size, refs.length);
    assert.ok(refs.includes('Organization/test-payor'));
    assert.ok(refs.includes(`Patient/${PID}`));
    assert.deepEqual(new URL(bundle.link[0]!.url).searchParams.getAll('_include:iterate'), [
      'Coverage:payor',
    ]);
  });

  test('nothing is followed from what the token may not read: no Coverage scope, no payor through it', async () => {
    const eobOnly = await issueTokens(running, await createTestApp(running), {
      enrollee: 0,
      scope: 'patient/ExplanationOfBenefit.rs',
    });
    const response = await fetch(
      `${running.url}/v2/fhir/ExplanationOfBenefit?_id=carrier--1&_include=ExplanationOfBenefit:coverage&_include:iterate=Coverage:payor`,
      { headers: { authorization: `Bearer ${eobOnly.access_token}` } },
    );
    assert.deepEqual(includedRefs((await response.json()) as Bundle), []);
  });
});

describe('CapabilityStatement: exactly the parameters served, with CARIN BB’s definitions', () => {
  interface Capability {
    rest: {
      resource: {
        type: string;
        searchParam?: { name: string; type: string; definition?: string }[];
        searchInclude?: string[];
      }[];
    }[];
  }
  const CARIN = 'http://hl7.org/fhir/us/carin-bb/SearchParameter';
  const BASE = 'http://hl7.org/fhir/SearchParameter';
  const params = async () => {
    const capability = (await get('/v2/fhir/metadata')).json as Capability;
    return Object.fromEntries(
      capability.rest[0]!.resource.map((r) => [
        r.type,
        Object.fromEntries((r.searchParam ?? []).map((p) => [p.name, `${p.type} ${p.definition ?? '-'}`])),
      ]),
    );
  };

  test('each type’s parameters and their definitions', async () => {
    const byType = await params();
    assert.deepEqual(byType.ExplanationOfBenefit, {
      _id: `token ${BASE}/Resource-id`,
      patient: `reference ${CARIN}/explanationofbenefit-patient|2.0.0`,
      identifier: `token ${CARIN}/explanationofbenefit-identifier|2.0.0`,
      type: `token ${CARIN}/explanationofbenefit-type|2.0.0`,
      'service-date': `date ${CARIN}/explanationofbenefit-service-date|2.0.0`,
      'service-start-date': `date ${CARIN}/explanationofbenefit-service-start-date|2.0.0`,
      'billable-period-start': `date ${CARIN}/explanationofbenefit-billable-period-start|2.0.0`,
      _lastUpdated: `date ${BASE}/Resource-lastUpdated`,
      excludeSAMHSA: 'string -',
    });
    assert.deepEqual(byType.Coverage, {
      _id: `token ${BASE}/Resource-id`,
      beneficiary: `reference ${BASE}/Coverage-beneficiary`,
      _lastUpdated: `date ${BASE}/Resource-lastUpdated`,
    });
    assert.deepEqual(byType.Patient, {
      _id: `token ${BASE}/Resource-id`,
      identifier: `token ${BASE}/Patient-identifier`,
      _lastUpdated: `date ${BASE}/Resource-lastUpdated`,
    });
    assert.deepEqual(byType.Organization, {});
    assert.deepEqual(byType.Practitioner, {});
  });

  test('every parameter listed answers (an unknown one would be ignored, so check each filters)', async () => {
    const probes: Record<string, string> = {
      _id: 'carrier--1',
      identifier: `${CLM}|1001`,
      type: 'pde',
      'service-date': '2024-01-20',
      'service-start-date': '2024-02-05',
      'billable-period-start': '2024-01-10',
      excludeSAMHSA: 'true',
      _lastUpdated: 'lt2000',
    };
    const all = await eobs('');
    for (const name of Object.keys((await params()).ExplanationOfBenefit!)) {
      if (name === 'patient') continue;
      const got = await eobs(`${name}=${encodeURIComponent(probes[name]!)}`);
      assert.ok(got.length < all.length, `${name} filters`);
    }
  });

  test(
    'the ExplanationOfBenefit, Coverage and Patient searches CARIN’s server statement requires are all listed, with its definitions',
    { skip: skipWithoutCarinPackage() },
    async () => {
      const c4bb = carinResources().get('CapabilityStatement-c4bb.json') as unknown as Capability;
      const ours = (await get('/v2/fhir/metadata')).json as Capability;
      for (const type of ['ExplanationOfBenefit', 'Coverage', 'Patient']) {
        const listed = new Map(
          ours.rest[0]!.resource.find((r) => r.type === type)!.searchParam!.map((p) => [
            p.name,
            p.definition,
          ]),
        );
        for (const p of c4bb.rest[0]!.resource.find((r) => r.type === type)!.searchParam ?? []) {
          assert.ok(listed.has(p.name), `${type} ${p.name}`);
          assert.equal(listed.get(p.name)!.split('|')[0], p.definition, `${type} ${p.name}`);
        }
      }
    },
  );
});

describe('OpenAPI documents the new parameters and the header', () => {
  test('EOB: the filters, _include:iterate and IncludeTaxNumbers; Coverage: _id', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters?: { name: string; in: string }[] } }>;
    };
    const names = (path: string, where: string) =>
      (doc.paths[path]!.get.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
    for (const name of [
      '_id',
      'identifier',
      'service-start-date',
      'billable-period-start',
      'excludeSAMHSA',
      '_include:iterate',
    ]) {
      assert.ok(names('/v2/fhir/ExplanationOfBenefit', 'query').includes(name), name);
    }
    assert.ok(names('/v2/fhir/Coverage', 'query').includes('_id'));
    for (const path of ['/v2/fhir/ExplanationOfBenefit', '/v2/fhir/ExplanationOfBenefit/{id}']) {
      assert.deepEqual(
        names(path, 'header').map((h) => h.toLowerCase()),
        ['includetaxnumbers'],
        path,
      );
    }
    assert.deepEqual(names('/v2/fhir/Coverage/{id}', 'header'), []);
  });
});
