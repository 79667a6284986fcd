import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, type TestApp, type TokenBody } from '../helpers/token-calls.js';
import { keptAccessContexts } from '../../src/auth/store/access-contexts.js';

let running: RunningService;
let app: TestApp;
let tokens: TokenBody;
const OWN = '-19990000000001';
const OTHER = '-19990000000002';

before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '3' });
  app = await createTestApp(running);
  tokens = await issueTokens(running, app, { enrollee: 0 });
});
after(() => running.close());

async function get(path: string, token: string | undefined = tokens.access_token, method = 'GET') {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

interface Bundle {
  resourceType: string;
  type: string;
  total: number;
  link: { relation: string; url: string }[];
  entry: {
    fullUrl: string;
    resource: {
      id: string;
      resourceType: string;
      patient?: { reference: string };
      billablePeriod?: { start: string; end?: string };
    };
  }[];
}

describe('reads are bound to the token’s patient', () => {
  test('own Patient: 200 application/fhir+json; another patient: 404', async () => {
    const own = await get(`/v2/fhir/Patient/${OWN}`);
    assert.equal(own.status, 200);
    assert.match(own.type, /^application\/fhir\+json/);
    assert.equal(own.body.id, OWN);
    assert.deepEqual(await get(`/v2/fhir/Patient/${OTHER}`), {
      status: 404,
      type: own.type.replace('fhir+json', 'json'),
      body: { detail: 'Not found.' },
    });
  });

  test('own Coverage and EOB read; another patient’s EOB id: 404', async () => {
    assert.equal((await get(`/v2/fhir/Coverage/part-a-${OWN}`)).status, 200);
    const search = (await get('/v2/fhir/ExplanationOfBenefit/?_count=1')).body as unknown as Bundle;
    const id = search.entry[0]!.resource.id;
    assert.equal((await get(`/v2/fhir/ExplanationOfBenefit/${id}`)).status, 200);
    const otherTokens = await issueTokens(running, app, { enrollee: 1 });
    const theirs = (await get('/v2/fhir/ExplanationOfBenefit/?_count=1', otherTokens.access_token))
      .body as unknown as Bundle;
    assert.equal((await get(`/v2/fhir/ExplanationOfBenefit/${theirs.entry[0]!.resource.id}`)).status, 404);
  });
});

describe('search', () => {
  test('EOB pages of 10 with total and absolute links on the public origin; following next reaches every claim', async () => {
    const first = (await get('/v2/fhir/ExplanationOfBenefit/')).body as unknown as Bundle;
    assert.equal(first.resourceType, 'Bundle');
    assert.equal(first.type, 'searchset');
    assert.ok(first.total >= 20);
    assert.equal(first.entry.length, 10);
    const rel = (b: Bundle, r: string) => b.link.find((l) => l.relation === r)?.url;
    assert.ok(
      rel(first, 'next')!.startsWith('http://localhost:8000/v2/fhir/ExplanationOfBenefit?'),
      rel(first, 'next'),
    );
    assert.equal(rel(first, 'previous'), undefined);
    const seen = new Set<string>();
    let page: Bundle | undefined = first;
    while (page) {
      for (const e of page.entry) {
        assert.equal(e.resource.patient?.reference, `Patient/${OWN}`);
        seen.add(e.resource.id);
      }
      const next = rel(page, 'next');
      page = next
        ? ((await get(next.replace('http://localhost:8000', ''))).body as unknown as Bundle)
        : undefined;
    }
    assert.equal(seen.size, first.total);
  });

  test('_count bounds, type and service-date filters, _lastUpdated', async () => {
    assert.equal(
      ((await get('/v2/fhir/ExplanationOfBenefit/?_count=50')).body as unknown as Bundle).entry.length <= 50,
      true,
    );
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/?_count=51')).body, {
      detail: "value must be at most 50 for dictionary value @ data['_count']",
    });
    const pde = (await get('/v2/fhir/ExplanationOfBenefit/?type=pde&_count=50')).body as unknown as Bundle;
    assert.ok(pde.total > 0 && pde.entry.every((e) => e.resource.id.startsWith('pde-')));
    const prefixed = (
      await get(
        '/v2/fhir/ExplanationOfBenefit/?type=https://bluebutton.cms.gov/resources/codesystem/eob-type|PDE',
      )
    ).body as unknown as Bundle;
    assert.equal(prefixed.total, pde.total);
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/?type=dental')).body, {
      detail: 'the type parameter value is not valid',
    });
    const recent = (await get('/v2/fhir/ExplanationOfBenefit/?service-date=ge2025-01-01&_count=50'))
      .body as unknown as Bundle;
    // service-date is the claim's through date (docs/decisions.md#fhir-search): billablePeriod.end, else start.
    const through = (e: Bundle['entry'][number]) =>
      e.resource.billablePeriod!.end ?? e.resource.billablePeriod!.start;
    assert.ok(recent.total > 0);
    assert.ok(
      recent.entry.every((e) => through(e) >= '2025-01-01'),
      'every match ends in 2025 or later',
    );
    // An unknown prefix keeps Blue Button's words (docs/decisions.md#fhir-search); no prefix and `eq` are
    // FHIR's "within"
    // (R4 §3.1.1.4), tested in fhir-search.test.ts.
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/?service-date=ap2025-01-01')).body, {
      detail: 'the service-date operator is not valid',
    });
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/?_lastUpdated=xx2025-01-01')).body, {
      detail: 'the _lastUpdated operator is not valid',
    });
    const future = (await get('/v2/fhir/ExplanationOfBenefit/?_lastUpdated=gt2099-01-01'))
      .body as unknown as Bundle;
    assert.equal(future.total, 0);
  });

  test('naming another patient: EOB patient and Coverage beneficiary 403, Patient _id 404', async () => {
    assert.equal((await get(`/v2/fhir/ExplanationOfBenefit/?patient=${OTHER}`)).status, 403);
    assert.equal((await get(`/v2/fhir/Coverage/?beneficiary=Patient/${OTHER}`)).status, 403);
    assert.equal((await get(`/v2/fhir/Patient/?_id=${OTHER}`)).status, 404);
    const own = (await get(`/v2/fhir/Coverage/?beneficiary=Patient/${OWN}`)).body as unknown as Bundle;
    assert.ok(own.total >= 3);
  });
});

describe('grant states', () => {
  test('a grant row gone while its token lives: 403; a 13-month grant past its end: 401 timed out', async () => {
    const other = await createTestApp(running);
    const issued = await issueTokens(running, other, { enrollee: 1 });
    const { db } = running.service.storage;
    const grant = await db
      .selectFrom('grants')
      .selectAll()
      .where('client_id', '=', other.clientId)
      .executeTakeFirstOrThrow();
    // Rows changed behind the stores' backs: the service is told, as the stores' own writes tell it.
    const kept = keptAccessContexts(db, undefined);
    await db.deleteFrom('grants').where('id', '=', grant.id).execute();
    kept.forget();
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/', issued.access_token)).body, {
      detail: 'You do not have permission to perform this action.',
    });
    await db
      .insertInto('grants')
      .values({ ...grant, expires_at: running.clock.now() - 1000 })
      .execute();
    kept.forget();
    const expired = await get('/v2/fhir/Coverage/', issued.access_token);
    assert.equal(expired.status, 401);
    assert.match(String(expired.body.detail), /^User access has timed out\. .*re-authenticate and consent/);
  });
});

describe('errors', () => {
  test('no token 401 with the challenge; token in the query 400; writes 405; metadata is public', async () => {
    const none = await fetch(`${running.url}/v2/fhir/Patient/`);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="api"');
    assert.deepEqual(await none.json(), { detail: 'Authentication credentials were not provided.' });
    // A token given but not one of ours says so, in the same status and shape (RFC 6750 §3.1).
    const invalid = await fetch(`${running.url}/v2/fhir/Patient/`, {
      headers: { authorization: 'Bearer nope' },
    });
    assert.equal(invalid.status, 401);
    assert.deepEqual(await invalid.json(), { detail: 'The access token is invalid.' });
    assert.match(invalid.headers.get('www-authenticate') ?? '', /^Bearer realm="api", error="invalid_token"/);
    assert.equal((await get(`/v2/fhir/Patient/?access_token=${tokens.access_token}`, undefined)).status, 400);
    assert.deepEqual((await get('/v2/fhir/ExplanationOfBenefit/', tokens.access_token, 'POST')).body, {
      detail: 'Method "POST" not allowed.',
    });
    const metadata = await get('/v2/fhir/metadata', undefined);
    assert.equal(metadata.status, 200);
    assert.equal(metadata.body.resourceType, 'CapabilityStatement');
  });

  test('scopes: .r cannot search, .s cannot read, no personal information means no Patient', async () => {
    const readOnly = await issueTokens(running, app, {
      enrollee: 2,
      scope: 'patient/Coverage.r patient/ExplanationOfBenefit.s',
    });
    assert.equal(
      (await get(`/v2/fhir/Coverage/part-a-${'-19990000000003'}`, readOnly.access_token)).status,
      200,
    );
    assert.equal((await get('/v2/fhir/Coverage/', readOnly.access_token)).status, 403);
    assert.equal((await get('/v2/fhir/ExplanationOfBenefit/', readOnly.access_token)).status, 200);
    const eob = (
      (await get('/v2/fhir/ExplanationOfBenefit/?_count=1', readOnly.access_token)).body as unknown as Bundle
    ).entry[0]!;
    assert.equal(
      (await get(`/v2/fhir/ExplanationOfBenefit/${eob.resource.id}`, readOnly.access_token)).status,
      403,
    );
    assert.equal((await get('/v2/fhir/Patient/', readOnly.access_token)).status, 403);
  });
});
