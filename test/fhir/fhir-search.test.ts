import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, type TestApp, type TokenBody } from '../helpers/token-calls.js';

/** Issue 16: FHIR R4 search and read semantics the validators found missing. */

let running: RunningService;
let app: TestApp;
let tokens: TokenBody;
const OWN = '-19990000000001';
const OTHER = '-19990000000002';

interface Resource {
  resourceType: string;
  id: string;
  meta?: { versionId?: string; lastUpdated?: string; profile?: string[] };
  identifier?: { system?: string; value?: string }[];
  billablePeriod?: { start: string; end?: string };
}
interface Bundle {
  resourceType: string;
  total: number;
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: Resource; search?: { mode: string } }[];
}

/**
 * Every EOB of the token's patient, with its service date as stored: the claim's through date,
 * billablePeriod.end (else start), as Blue Button filters `service-date` (docs/decisions.md#fhir-search).
 */
let allEobs: { id: string; day: string }[];
let mbi: { system: string; value: string };

before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '2' });
  app = await createTestApp(running);
  tokens = await issueTokens(running, app, { enrollee: 0 });
  const all = await everyPage('ExplanationOfBenefit', '_count=50');
  assert.ok(all.total >= 20 && all.total <= 60, `EOBs: ${all.total}`);
  allEobs = all.entries.map((resource) => ({
    id: resource.id,
    day: (resource.billablePeriod!.end ?? resource.billablePeriod!.start).slice(0, 10),
  }));
  const patient = (await get(`/v2/fhir/Patient/${OWN}`)).json as Resource;
  const current = patient.identifier!.find((i) => i.system === 'http://hl7.org/fhir/sid/us-mbi')!;
  mbi = { system: current.system!, value: current.value! };
});
after(() => running.close());

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.access_token}`, ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: (text ? JSON.parse(text) : undefined) as unknown,
  };
}

async function search(type: string, query: string): Promise<Bundle> {
  const answer = await get(`/v2/fhir/${type}?${query}`);
  assert.equal(answer.status, 200, `${type}?${query}: ${answer.text}`);
  return answer.json as Bundle;
}

/** Every match of a search, following `next` links; `total` as the first page says it. */
async function everyPage(type: string, query: string): Promise<{ total: number; entries: Resource[] }> {
  let bundle = await search(type, query);
  const total = bundle.total;
  const entries: Resource[] = [];
  for (;;) {
    entries.push(...(bundle.entry ?? []).map((e) => e.resource));
    const next = bundle.link.find((l) => l.relation === 'next');
    if (!next) return { total, entries };
    const answer = await get(next.url.replace(/^https?:\/\/[^/]+/, ''));
    assert.equal(answer.status, 200, next.url);
    bundle = answer.json as Bundle;
  }
}

/** The ids of the patient's EOBs a service-date query returns, and those its days say it should. */
async function eobIds(query: string, expected: (day: string) => boolean) {
  const bundle = await everyPage('ExplanationOfBenefit', `${query}&_count=50`);
  const got = bundle.entries.map((e) => e.id).sort();
  const want = allEobs
    .filter((e) => expected(e.day))
    .map((e) => e.id)
    .sort();
  assert.deepEqual(got, want, query);
  assert.equal(bundle.total, want.length, query);
  return got;
}

describe('FHIR R4 §3.1.1.5.5: Patient identifier is a token search', () => {
  test('code, system|code, |code and system| match the own Patient; anything else is an empty searchset', async () => {
    for (const value of [mbi.value, `${mbi.system}|${mbi.value}`, `${mbi.system}|`, `nope,${mbi.value}`]) {
      const bundle = await search('Patient', `identifier=${encodeURIComponent(value)}`);
      assert.equal(bundle.total, 1, value);
      assert.equal(bundle.entry![0]!.resource.id, OWN, value);
    }
    for (const value of [
      'nope',
      `${mbi.system}|nope`,
      `|${mbi.value}`,
      `http://example.org/other|${mbi.value}`,
      'http://example.org/other|',
      mbi.value.toLowerCase(),
    ]) {
      const bundle = await search('Patient', `identifier=${encodeURIComponent(value)}`);
      assert.equal(bundle.total, 0, value);
      assert.deepEqual(bundle.entry ?? [], [], value);
    }
  });

  test('another enrollee’s identifier never finds them: only the token’s Patient can match', async () => {
    const theirs = await issueTokens(running, app, { enrollee: 1 });
    const response = await fetch(`${running.url}/v2/fhir/Patient/${OTHER}`, {
      headers: { authorization: `Bearer ${theirs.access_token}` },
    });
    const their = ((await response.json()) as Resource).identifier![0]!;
    assert.notEqual(their.value, mbi.value);
    const bundle = await search(
      'Patient',
      `identifier=${encodeURIComponent(`${their.system}|${their.value}`)}`,
    );
    assert.equal(bundle.total, 0);
  });

  test('the identifier is kept in the paging links', async () => {
    const bundle = await search('Patient', `identifier=${encodeURIComponent(mbi.value)}`);
    const self = new URL(bundle.link.find((l) => l.relation === 'self')!.url);
    assert.equal(self.searchParams.get('identifier'), mbi.value);
  });
});

describe('FHIR R4 §3.1.1.5.6: service-date takes every date precision as a range', () => {
  test('ge2024 is a year-precision range: on or after 2024-01-01', async () => {
    await eobIds('service-date=ge2024', (d) => d >= '2024-01-01');
  });

  test('gt2024 is after the end of 2024; lt2024 before its start; le2024 before 2025', async () => {
    await eobIds('service-date=gt2024', (d) => d >= '2025-01-01');
    await eobIds('service-date=lt2024', (d) => d < '2024-01-01');
    await eobIds('service-date=le2024', (d) => d < '2025-01-01');
  });

  test('month precision: ge2024-06, lt2024-06 before June, le2024-06 before July', async () => {
    await eobIds('service-date=ge2024-06', (d) => d >= '2024-06-01');
    await eobIds('service-date=lt2024-06', (d) => d < '2024-06-01');
    await eobIds('service-date=le2024-06', (d) => d < '2024-07-01');
  });

  test('no prefix and eq mean within the range; ne outside it', async () => {
    const year = allEobs[0]!.day.slice(0, 4);
    const inYear = (d: string) => d.startsWith(year);
    assert.ok((await eobIds(`service-date=${year}`, inYear)).length > 0);
    await eobIds(`service-date=eq${year}`, inYear);
    await eobIds(`service-date=ne${year}`, (d) => !inYear(d));
    const day = allEobs[0]!.day;
    assert.ok((await eobIds(`service-date=${day}`, (d) => d === day)).length >= 1);
  });

  test('a dateTime with seconds, fraction and zone is accepted (§2.1.0); its date as written is compared', async () => {
    await eobIds('service-date=ge2024-06-01T00:00:00Z', (d) => d >= '2024-06-01');
    await eobIds('service-date=ge2024-06-01T00:00:00.000Z', (d) => d >= '2024-06-01');
    await eobIds(
      `service-date=ge${encodeURIComponent('2024-06-01T23:30:00-05:00')}`,
      (d) => d >= '2024-06-01',
    );
    await eobIds(
      `service-date=lt${encodeURIComponent('2024-06-01T08:00:00+09:00')}`,
      (d) => d <= '2024-06-01',
    );
  });

  test('two values make an interval', async () => {
    await eobIds(
      'service-date=ge2024-03&service-date=lt2024-09',
      (d) => d >= '2024-03-01' && d < '2024-09-01',
    );
  });

  // Blue Button's texts: docs/decisions.md#fhir-search.
  test('impossible dates: 400 in the detail shape; an unknown prefix keeps Blue Button’s words', async () => {
    for (const value of ['ge2023-13-45', 'ge2023-02-29', 'ge2024-06-01T25:00:00Z', 'ge2024-6-1', 'gefoo']) {
      const answer = await get(`/v2/fhir/ExplanationOfBenefit?service-date=${value}`);
      assert.equal(answer.status, 400, value);
      assert.deepEqual(answer.json, { detail: 'the service-date value is not a valid date' }, value);
    }
    for (const value of ['ap2024', 'xx2024-01-01']) {
      assert.deepEqual((await get(`/v2/fhir/ExplanationOfBenefit?service-date=${value}`)).json, {
        detail: 'the service-date operator is not valid',
      });
    }
  });
});

describe('FHIR R4 §3.1.1.5.6: _lastUpdated uses the same parser on an instant', () => {
  test('every precision: the import time is inside its day, month and year', async () => {
    const eob = (await get(`/v2/fhir/ExplanationOfBenefit/${allEobs[0]!.id}`)).json as Resource;
    const updated = eob.meta!.lastUpdated!;
    const total = allEobs.length;
    for (const value of [
      updated.slice(0, 4),
      updated.slice(0, 7),
      updated.slice(0, 10),
      `ge${updated.slice(0, 4)}`,
      `le${updated.slice(0, 7)}`,
      `ge${updated.slice(0, 10)}T00:00:00Z`,
      `lt${nextDay(updated)}`,
      `lt${nextDay(updated)}T00:00:00Z`,
    ]) {
      assert.equal((await search('ExplanationOfBenefit', `_lastUpdated=${value}`)).total, total, value);
    }
    for (const value of [
      `gt${updated.slice(0, 4)}`,
      `lt${updated.slice(0, 7)}`,
      `ne${updated.slice(0, 10)}`,
    ]) {
      assert.equal((await search('ExplanationOfBenefit', `_lastUpdated=${value}`)).total, 0, value);
    }
  });

  test('an impossible date is 400, not a string comparison', async () => {
    for (const value of ['ge2023-13-45', 'ge2024-02-30', 'lt2024-01-01T24:00:00Z']) {
      assert.deepEqual(
        (await get(`/v2/fhir/ExplanationOfBenefit?_lastUpdated=${value}`)).json,
        { detail: 'the _lastUpdated value is not a valid date' },
        value,
      );
    }
  });
});

function nextDay(iso: string): string {
  return new Date(Date.parse(iso.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);
}

describe('FHIR R4 §3.1.1.7: entries carry search.mode', () => {
  test('every entry of a searchset is a match with its own fullUrl', async () => {
    for (const type of ['Patient', 'Coverage', 'ExplanationOfBenefit']) {
      const bundle = await search(type, '_count=5');
      assert.ok(bundle.entry!.length > 0, type);
      for (const e of bundle.entry!) {
        assert.deepEqual(e.search, { mode: 'match' }, type);
        assert.equal(e.fullUrl, `http://localhost:8000/v2/fhir/${type}/${e.resource.id}`);
      }
    }
  });
});

describe('FHIR R4 §3.1.0.5 (http.html#versioning): reads carry the version', () => {
  test('meta.versionId, ETag W/"<versionId>" and Last-Modified; version "1" for bodies stored without one', async () => {
    const read = await get(`/v2/fhir/Coverage/part-a-${OWN}`);
    assert.equal(read.status, 200);
    const body = read.json as Resource;
    assert.equal(body.meta!.versionId, '1');
    assert.equal(read.headers.get('etag'), 'W/"1"');
    assert.equal(read.headers.get('last-modified'), new Date(body.meta!.lastUpdated!).toUTCString());
    const entry = (await search('Coverage', '_count=50')).entry!.find((e) => e.resource.id === body.id)!;
    assert.equal(entry.resource.meta!.versionId, '1', 'the same version in search entries');
  });

  test('a stored versionId is served as is, in the body, the ETag and search entries', async () => {
    const { db } = running.service.storage;
    const id = allEobs[0]!.id;
    const row = await db
      .selectFrom('fhir_resources')
      .select('body')
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const resource = JSON.parse(row.body) as Resource;
    resource.meta = { ...resource.meta, versionId: '7' };
    await db
      .updateTable('fhir_resources')
      .set({ body: JSON.stringify(resource) })
      .where('resource_type', '=', 'ExplanationOfBenefit')
      .where('id', '=', id)
      .execute();
    const read = await get(`/v2/fhir/ExplanationOfBenefit/${id}`);
    assert.equal((read.json as Resource).meta!.versionId, '7');
    assert.equal(read.headers.get('etag'), 'W/"7"');
    const entry = (await search('ExplanationOfBenefit', '_count=50')).entry!.find(
      (e) => e.resource.id === id,
    )!;
    assert.equal(entry.resource.meta!.versionId, '7');
  });

  test('RFC 9110 §13.1.2: If-None-Match with the current ETag is 304 without a body; another tag is 200', async () => {
    const path = `/v2/fhir/Patient/${OWN}`;
    const etag = (await get(path)).headers.get('etag')!;
    for (const header of [etag, 'W/"0", W/"1"', '"1"', '*']) {
      const answer = await get(path, { 'if-none-match': header });
      assert.equal(answer.status, 304, header);
      assert.equal(answer.text, '');
      assert.equal(answer.headers.get('etag'), etag);
    }
    assert.equal((await get(path, { 'if-none-match': 'W/"2"' })).status, 200);
  });

  test('RFC 9110 §13.1.3: If-Modified-Since at or after Last-Modified is 304, before it 200', async () => {
    const path = `/v2/fhir/Patient/${OWN}`;
    const lastModified = (await get(path)).headers.get('last-modified')!;
    assert.equal((await get(path, { 'if-modified-since': lastModified })).status, 304);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    assert.equal((await get(path, { 'if-modified-since': before })).status, 200);
  });

  test('a conditional read is still authenticated and patient-bound', async () => {
    const none = await fetch(`${running.url}/v2/fhir/Patient/${OWN}`, { headers: { 'if-none-match': '*' } });
    assert.equal(none.status, 401);
    assert.equal((await get(`/v2/fhir/Patient/${OTHER}`, { 'if-none-match': '*' })).status, 404);
  });
});

describe('FHIR R4 §3.1.0.1.8 (http.html#mime-type): JSON only', () => {
  test('_format json, application/json, application/fhir+json are served', async () => {
    for (const format of [
      'json',
      'application/json',
      'application/fhir+json',
      'application/fhir+json;fhirVersion=4.0',
    ]) {
      assert.equal(
        (await get(`/v2/fhir/Patient/${OWN}?_format=${encodeURIComponent(format)}`)).status,
        200,
        format,
      );
      assert.equal((await get(`/v2/fhir/Patient?_format=${encodeURIComponent(format)}`)).status, 200, format);
    }
  });

  test('_format xml (or another format) is 406 in the detail shape, on reads, searches and metadata', async () => {
    for (const format of ['xml', 'text/xml', 'application/xml', 'application/fhir+xml', 'turtle']) {
      for (const path of [`/v2/fhir/Patient/${OWN}`, '/v2/fhir/ExplanationOfBenefit', '/v2/fhir/metadata']) {
        const answer = await get(`${path}?_format=${encodeURIComponent(format)}`);
        assert.equal(answer.status, 406, `${path} ${format}`);
        assert.match(answer.headers.get('content-type')!, /json/);
        assert.match(String((answer.json as { detail: string }).detail), /JSON only/);
      }
    }
  });

  test('an Accept asking only for XML is 406; one JSON can answer, or none at all, is served', async () => {
    for (const accept of [
      'application/fhir+xml',
      'application/xml, text/xml;q=0.5',
      'application/fhir+xml, application/json;q=0',
    ]) {
      assert.equal((await get('/v2/fhir/Coverage', { accept })).status, 406, accept);
    }
    for (const accept of [
      'application/fhir+json',
      'application/json',
      'application/fhir+xml;q=0.9, application/fhir+json',
      '*/*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    ]) {
      assert.equal((await get('/v2/fhir/Coverage', { accept })).status, 200, accept);
    }
  });
});

describe('Fetch standard CORS (CapabilityStatement rest.security.cors)', () => {
  const ORIGIN = 'https://app.example';
  const paths = [
    '/v2/fhir/metadata',
    '/v2/fhir/Patient',
    `/v2/fhir/Patient/${OWN}`,
    '/v2/fhir/ExplanationOfBenefit/',
    '/v2/connect/userinfo',
    '/.well-known/openid-configuration',
    '/v2/fhir/.well-known/smart-configuration',
  ];

  test('a preflight is 204 with the allowed origin, methods, headers and max-age', async () => {
    for (const path of paths) {
      const answer = await fetch(`${running.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(answer.status, 204, path);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', path);
      assert.match(answer.headers.get('access-control-allow-methods')!, /\bGET\b/, path);
      const allowed = answer.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const name of ['authorization', 'accept', 'content-type']) assert.ok(allowed.includes(name), path);
      assert.ok(Number(answer.headers.get('access-control-max-age')) > 0, path);
      assert.equal(answer.headers.get('access-control-allow-credentials'), null, 'no cookies: `*` origin');
    }
  });

  test('answers (errors too) carry Allow-Origin and expose ETag and Last-Modified', async () => {
    for (const path of paths) {
      const answer = await get(path, { origin: ORIGIN });
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', path);
      const exposed = answer.headers.get('access-control-expose-headers')!.toLowerCase();
      for (const name of ['etag', 'last-modified', 'location']) assert.ok(exposed.includes(name), path);
    }
    const unauthenticated = await fetch(`${running.url}/v2/fhir/Patient`, { headers: { origin: ORIGIN } });
    assert.equal(unauthenticated.status, 401);
    assert.equal(unauthenticated.headers.get('access-control-allow-origin'), '*');
    const wrongMethod = await fetch(`${running.url}/v2/fhir/Patient`, {
      method: 'POST',
      headers: { origin: ORIGIN },
    });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('access-control-allow-origin'), '*');
  });

  test('a bare OPTIONS stays 405 with Allow; the OAuth endpoints and the plan API get no CORS', async () => {
    const bare = await fetch(`${running.url}/v2/fhir/Patient`, { method: 'OPTIONS' });
    assert.equal(bare.status, 405);
    assert.equal(bare.headers.get('allow'), 'GET, HEAD');
    assert.deepEqual(await bare.json(), { detail: 'Method "OPTIONS" not allowed.' });
    for (const path of ['/v2/o/token/', '/v2/o/authorize/', '/v2/o/revoke/']) {
      const answer = await fetch(`${running.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      });
      assert.equal(answer.status, 405, path);
      assert.equal(answer.headers.get('access-control-allow-origin'), null, path);
    }
    const token = await fetch(`${running.url}/v2/o/token/`, { method: 'POST', headers: { origin: ORIGIN } });
    assert.equal(token.headers.get('access-control-allow-origin'), null);
    const unknown = await fetch(`${running.url}/v2/fhir/Nothing`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    assert.equal(unknown.status, 404);
  });
});

describe('CapabilityStatement (FHIR R4 §6.1.0): CARIN BB profiles and search parameters', () => {
  interface Capability {
    implementationGuide: string[];
    rest: {
      security: { cors: boolean };
      resource: {
        type: string;
        supportedProfile: string[];
        searchParam: { name: string; type: string; definition: string }[];
      }[];
    }[];
  }
  const CARIN = 'http://hl7.org/fhir/us/carin-bb';

  test('supportedProfile lists the C4BB profiles at 2.0.0; every search parameter has its definition', async () => {
    const capability = (await get('/v2/fhir/metadata')).json as Capability;
    assert.equal(capability.rest[0]!.security.cors, true);
    assert.deepEqual(capability.implementationGuide, [
      `${CARIN}/ImplementationGuide/hl7.fhir.us.carin-bb|2.0.0`,
    ]);
    const byType = Object.fromEntries(capability.rest[0]!.resource.map((r) => [r.type, r]));
    assert.deepEqual(byType.Patient!.supportedProfile, [`${CARIN}/StructureDefinition/C4BB-Patient|2.0.0`]);
    assert.deepEqual(byType.Coverage!.supportedProfile, [`${CARIN}/StructureDefinition/C4BB-Coverage|2.0.0`]);
    assert.deepEqual(
      byType.ExplanationOfBenefit!.supportedProfile,
      ['Inpatient-Institutional', 'Outpatient-Institutional', 'Pharmacy', 'Professional-NonClinician'].map(
        (p) => `${CARIN}/StructureDefinition/C4BB-ExplanationOfBenefit-${p}|2.0.0`,
      ),
    );
    const params = (type: string) =>
      Object.fromEntries(byType[type]!.searchParam.map((p) => [p.name, p.definition]));
    assert.deepEqual(params('Patient'), {
      _id: 'http://hl7.org/fhir/SearchParameter/Resource-id',
      identifier: 'http://hl7.org/fhir/SearchParameter/Patient-identifier',
      _lastUpdated: 'http://hl7.org/fhir/SearchParameter/Resource-lastUpdated',
    });
    assert.equal(params('Coverage').beneficiary, 'http://hl7.org/fhir/SearchParameter/Coverage-beneficiary');
    assert.equal(
      params('ExplanationOfBenefit')['service-date'],
      `${CARIN}/SearchParameter/explanationofbenefit-service-date|2.0.0`,
    );
    assert.equal(
      params('ExplanationOfBenefit').type,
      `${CARIN}/SearchParameter/explanationofbenefit-type|2.0.0`,
    );
  });

  test('the profiles it lists are the ones the served resources claim', async () => {
    const capability = (await get('/v2/fhir/metadata')).json as Capability;
    for (const type of ['Patient', 'Coverage', 'ExplanationOfBenefit']) {
      const listed = capability.rest[0]!.resource.find((r) => r.type === type)!.supportedProfile;
      for (const e of (await search(type, '_count=50')).entry!) {
        for (const profile of e.resource.meta!.profile!) {
          assert.ok(listed.includes(`${profile.split('|')[0]}|2.0.0`), `${type} ${profile}`);
        }
      }
    }
  });
});

describe('OpenAPI: the FHIR searches list their parameters', () => {
  test('each search documents paging, dates, its filters and _format', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { parameters?: { name: string; in: string; schema?: { maximum?: number } }[] } }
      >;
    };
    const names = (path: string) =>
      (doc.paths[path]!.get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    const common = ['_count', 'startIndex', '_lastUpdated', '_format'];
    assert.deepEqual(names('/v2/fhir/Patient').sort(), [...common, '_id', 'identifier'].sort());
    const includes = ['_include', '_include:iterate'];
    assert.deepEqual(
      names('/v2/fhir/Coverage').sort(),
      [...common, '_id', 'beneficiary', ...includes].sort(),
    );
    assert.deepEqual(
      names('/v2/fhir/ExplanationOfBenefit').sort(),
      [
        ...common,
        ...includes,
        '_id',
        'patient',
        'identifier',
        'type',
        'service-date',
        'service-start-date',
        'billable-period-start',
        'excludeSAMHSA',
      ].sort(),
    );
    const count = doc.paths['/v2/fhir/ExplanationOfBenefit']!.get.parameters!.find(
      (p) => p.name === '_count',
    )!;
    assert.equal(count.schema!.maximum, 50);
  });

  // Blue Button's texts: docs/decisions.md#fhir-search.
  test('documenting them does not change Blue Button’s error words', async () => {
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit?_count=51')).json, {
      detail: "value must be at most 50 for dictionary value @ data['_count']",
    });
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit?count=51')).json, {
      detail: "value must be at most 50 for dictionary value @ data['count']",
    });
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit?_count=abc')).json, {
      detail: '_count must be a whole number',
    });
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit?startIndex=-1')).json, {
      detail: 'startIndex must be a whole number',
    });
  });
});
