import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { carinResources, skipWithoutCarinPackage } from '../helpers/carin-validator.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { issueTokens, TEXT, type TokenBody } from '../helpers/token-calls.js';

/**
 * Issue 16: the directory the claims refer to (Organization, Practitioner) read by id, `_include` on
 * ExplanationOfBenefit and Coverage (FHIR R4 §3.1.1.5.5), and the CapabilityStatement that lists both.
 * Enrollee 2 (BBUser00002) has Part C, so its Coverages name two payors. The suite reads the CARIN-shaped
 * sandbox (SANDBOX_CLAIMS=carin): Blue Button's claims name providers and payors by identifier, not by
 * reference, so they leave `_include` nothing to follow.
 */

let running: RunningService;
let full: TokenBody;
const PATIENT = '-19990000000003';

interface Resource {
  resourceType: string;
  id: string;
  meta?: { versionId?: string; profile?: string[] };
  [key: string]: unknown;
}
interface Bundle {
  total: number;
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: Resource; search?: { mode: string } }[];
}

before(async () => {
  running = await startService({ SANDBOX_ENROLLEES: '3', SANDBOX_CLAIMS: 'carin' });
  full = await tokenOf({ enrollee: 2 });
});
after(() => running.close());

/** A token of another app: a new authorization replaces the tokens of the same app and enrollee. */
async function tokenOf(options: Parameters<typeof issueTokens>[2]) {
  return issueTokens(running, await createTestApp(running), options);
}

/** `path` on the running service; a paging link's public origin is swapped for it. */
async function get(path: string, token = full.access_token, headers = {}) {
  const response = await fetch(`${running.url}${path.replace(/^https?:\/\/[^/]+/, '')}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: (text ? JSON.parse(text) : {}) as unknown,
  };
}

async function search(path: string, token = full.access_token): Promise<Bundle> {
  const answer = await get(path, token);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return answer.json as Bundle;
}

const matches = (b: Bundle) =>
  (b.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource);
const included = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'include');
const includedRefs = (b: Bundle) => included(b).map((e) => `${e.resource.resourceType}/${e.resource.id}`);

type Ref = { reference?: string } | undefined;
/** What each served EOB include parameter names in a match, read the way CARIN's SearchParameters say. */
const EOB_PATHS: Record<string, (eob: Resource) => Ref[]> = {
  patient: (e) => [e.patient as Ref],
  provider: (e) => [e.provider as Ref],
  'care-team': (e) => ((e.careTeam ?? []) as { provider: Ref }[]).map((c) => c.provider),
  coverage: (e) => ((e.insurance ?? []) as { coverage: Ref }[]).map((i) => i.coverage),
  insurer: (e) => [e.insurer as Ref],
};
function expectedRefs(resources: Resource[], paths: ((r: Resource) => Ref[])[]): string[] {
  const refs = resources.flatMap((r) => paths.flatMap((p) => p(r).map((ref) => ref?.reference)));
  return [...new Set(refs.filter((r): r is string => typeof r === 'string'))];
}

describe('FHIR R4 §3.1.1.5.5 _include on ExplanationOfBenefit (CARIN BB searchInclude)', () => {
  for (const param of Object.keys(EOB_PATHS)) {
    test(`_include=ExplanationOfBenefit:${param} adds exactly what the page's matches name there, once each`, async () => {
      const plain = await search('/v2/fhir/ExplanationOfBenefit?_count=20');
      const bundle = await search(
        `/v2/fhir/ExplanationOfBenefit?_count=20&_include=ExplanationOfBenefit:${param}`,
      );
      assert.equal(bundle.total, plain.total, 'included resources are not counted in total');
      assert.deepEqual(
        matches(bundle).map((r) => r.id),
        matches(plain).map((r) => r.id),
      );
      const refs = includedRefs(bundle);
      assert.ok(refs.length > 0);
      assert.equal(new Set(refs).size, refs.length, 'each resource once');
      assert.deepEqual(refs.sort(), expectedRefs(matches(bundle), [EOB_PATHS[param]!]).sort());
      for (const e of included(bundle)) {
        assert.ok(e.fullUrl.endsWith(`/v2/fhir/${e.resource.resourceType}/${e.resource.id}`), e.fullUrl);
        assert.ok(e.resource.meta?.versionId, 'included bodies carry meta.versionId');
      }
    });
  }

  test('_include=ExplanationOfBenefit:* is every parameter at once; repeating values changes nothing', async () => {
    const star = await search('/v2/fhir/ExplanationOfBenefit?_count=20&_include=ExplanationOfBenefit:*');
    assert.deepEqual(includedRefs(star).sort(), expectedRefs(matches(star), Object.values(EOB_PATHS)).sort());
    assert.deepEqual(
      includedRefs(star).filter((r) => r.startsWith('Patient/')),
      [`Patient/${PATIENT}`],
    );
    const listed = Object.keys(EOB_PATHS)
      .map((p) => `_include=ExplanationOfBenefit:${p}`)
      .join('&');
    const each = await search(
      `/v2/fhir/ExplanationOfBenefit?_count=20&${listed}&_include=ExplanationOfBenefit:*`,
    );
    assert.deepEqual(includedRefs(each).sort(), includedRefs(star).sort());
  });

  test('a target type narrows a parameter: ExplanationOfBenefit:care-team:Practitioner', async () => {
    const bundle = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=20&_include=ExplanationOfBenefit:care-team:Practitioner',
    );
    const refs = includedRefs(bundle);
    assert.ok(refs.length > 0);
    assert.ok(
      refs.every((r) => r.startsWith('Practitioner/')),
      refs.join(),
    );
  });

  test('paging (FHIR R4 §3.1.1.6.3): every link keeps _include; each page includes for its own matches', async () => {
    const first = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=5&_include=ExplanationOfBenefit:provider',
    );
    for (const link of first.link) {
      assert.deepEqual(new URL(link.url).searchParams.getAll('_include'), ['ExplanationOfBenefit:provider']);
    }
    const next = await search(first.link.find((l) => l.relation === 'next')!.url);
    assert.equal(next.total, first.total);
    assert.deepEqual(includedRefs(next).sort(), expectedRefs(matches(next), [EOB_PATHS.provider!]).sort());
  });

  test('_count=0: no matches, so nothing included; total still counts only matches', async () => {
    const bundle = await search('/v2/fhir/ExplanationOfBenefit?_count=0&_include=ExplanationOfBenefit:*');
    assert.ok(bundle.total > 0);
    assert.deepEqual(bundle.entry ?? [], []);
  });

  test('values not served are ignored (FHIR R4 §3.1.1.4, as unknown parameters are) and left out of the links', async () => {
    for (const value of [
      'ExplanationOfBenefit:payee',
      'ExplanationOfBenefit:bogus',
      'Coverage:payor',
      'ExplanationOfBenefit:insurer:Patient',
      'ExplanationOfBenefit',
      'explanationofbenefit:patient',
    ]) {
      const bundle = await search(
        `/v2/fhir/ExplanationOfBenefit?_count=5&_include=${encodeURIComponent(value)}`,
      );
      assert.deepEqual(included(bundle), [], value);
      assert.equal(new URL(bundle.link[0]!.url).searchParams.get('_include'), null, value);
    }
    // `_include:iterate` is served (fhir-include-iterate.test.ts); on the matches' own type it is `_include`.
    const iterate = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=5&_include:iterate=ExplanationOfBenefit:*',
    );
    const plain = await search('/v2/fhir/ExplanationOfBenefit?_count=5&_include=ExplanationOfBenefit:*');
    assert.deepEqual(includedRefs(iterate), includedRefs(plain));
    const mixed = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=5&_include=ExplanationOfBenefit:bogus&_include=ExplanationOfBenefit:insurer',
    );
    assert.deepEqual(includedRefs(mixed), ['Organization/cms']);
    assert.deepEqual(new URL(mixed.link[0]!.url).searchParams.getAll('_include'), [
      'ExplanationOfBenefit:insurer',
    ]);
  });
});

describe('_include keeps patient isolation: only what the token could read by id', () => {
  test('ExplanationOfBenefit:patient without Patient scope (no personal information shared) includes no Patient', async () => {
    const noDemographics = await tokenOf({ enrollee: 2, share: false });
    assert.ok(!noDemographics.scope.includes('patient/Patient'), noDemographics.scope);
    for (const value of ['ExplanationOfBenefit:patient', 'ExplanationOfBenefit:*']) {
      const bundle = await search(
        `/v2/fhir/ExplanationOfBenefit?_count=10&_include=${value}`,
        noDemographics.access_token,
      );
      assert.ok(matches(bundle).length > 0);
      assert.ok(!includedRefs(bundle).some((r) => r.startsWith('Patient/')), value);
    }
    const star = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=10&_include=ExplanationOfBenefit:*',
      noDemographics.access_token,
    );
    assert.ok(includedRefs(star).includes('Organization/cms'), 'the directory is still included');
  });

  test('ExplanationOfBenefit:coverage without Coverage scope includes no Coverage', async () => {
    const eobOnly = await tokenOf({
      enrollee: 2,
      scope: 'patient/ExplanationOfBenefit.rs',
    });
    const bundle = await search(
      '/v2/fhir/ExplanationOfBenefit?_count=10&_include=ExplanationOfBenefit:*',
      eobOnly.access_token,
    );
    const types = new Set(includedRefs(bundle).map((r) => r.split('/')[0]));
    assert.deepEqual([...types].sort(), ['Organization', 'Practitioner']);
  });

  test('another enrollee’s token includes its own Patient, never this one', async () => {
    const other = await tokenOf({ enrollee: 0 });
    const bundle = await search(
      '/v2/fhir/ExplanationOfBenefit?_include=ExplanationOfBenefit:patient',
      other.access_token,
    );
    assert.deepEqual(includedRefs(bundle), ['Patient/-19990000000001']);
  });
});

describe('_include on Coverage (CARIN BB searchInclude Coverage:payor)', () => {
  test('Coverage:payor and Coverage:* include each payor Organization once', async () => {
    for (const value of ['Coverage:payor', 'Coverage:*']) {
      const bundle = await search(`/v2/fhir/Coverage?_include=${value}`);
      assert.equal(bundle.total, matches(bundle).length);
      assert.deepEqual(includedRefs(bundle).sort(), [
        'Organization/cms',
        'Organization/sample-ma-organization',
      ]);
      assert.deepEqual(new URL(bundle.link[0]!.url).searchParams.getAll('_include'), [value]);
    }
  });
});

describe('Organization and Practitioner read (CARIN server statement: read SHALL)', () => {
  test('200 with C4BB profile, versionId, ETag, Last-Modified; 304 when unchanged; readable cross-origin', async () => {
    for (const path of ['/v2/fhir/Organization/cms', '/v2/fhir/Practitioner/clinician-1']) {
      const answer = await get(path, full.access_token, { origin: 'https://app.example' });
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('content-type')!, /^application\/fhir\+json/);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
      const body = answer.json as Resource;
      const type = path.split('/')[3]!;
      assert.equal(body.resourceType, type);
      assert.deepEqual(body.meta!.profile, [
        `http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-${type}|2.0.0`,
      ]);
      const etag = answer.headers.get('etag')!;
      assert.equal(etag, `W/"${body.meta!.versionId}"`);
      assert.ok(answer.headers.get('last-modified'));
      assert.equal((await get(path, full.access_token, { 'if-none-match': etag })).status, 304);
      const since = answer.headers.get('last-modified')!;
      assert.equal((await get(path, full.access_token, { 'if-modified-since': since })).status, 304);
    }
  });

  test('an unknown id, or a patient’s id under a directory type, is 404 as for other reads', async () => {
    for (const path of [
      '/v2/fhir/Organization/nope',
      '/v2/fhir/Practitioner/cms',
      `/v2/fhir/Organization/${PATIENT}`,
    ]) {
      const answer = await get(path);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(answer.json, { detail: 'Not found.' });
    }
    assert.equal((await get('/v2/fhir/Patient/cms')).status, 404, 'a directory id is no Patient');
  });

  test('readable with EOB or Coverage read scope; 403 without (Patient only, or search only); 401 without a token', async () => {
    const allowed = [
      'patient/ExplanationOfBenefit.r',
      'patient/Coverage.rs',
      'patient/ExplanationOfBenefit.read',
    ];
    const refused = ['patient/Patient.rs', 'patient/ExplanationOfBenefit.s patient/Coverage.s'];
    for (const scope of [...allowed, ...refused]) {
      const token = await tokenOf({ enrollee: 2, scope });
      for (const path of ['/v2/fhir/Organization/cms', '/v2/fhir/Practitioner/clinician-1']) {
        const answer = await get(path, token.access_token);
        if (allowed.includes(scope)) assert.equal(answer.status, 200, `${scope} ${path}`);
        else {
          assert.equal(answer.status, 403, `${scope} ${path}`);
          assert.deepEqual(answer.json, { detail: TEXT.noPermission });
        }
      }
    }
    assert.equal((await get('/v2/fhir/Organization/cms', '')).status, 401);
  });

  test('there is no directory search (the server statement makes it a MAY): 404', async () => {
    assert.equal((await get('/v2/fhir/Organization')).status, 404);
    assert.equal((await get('/v2/fhir/Practitioner?_id=clinician-1')).status, 404);
  });
});

describe('CapabilityStatement (FHIR R4 §6.1.0) lists the directory reads and searchInclude as served', () => {
  interface Capability {
    rest: {
      resource: {
        type: string;
        supportedProfile: string[];
        interaction: { code: string }[];
        searchInclude?: string[];
      }[];
    }[];
  }
  const capability = async () => (await get('/v2/fhir/metadata', '')).json as Capability;
  const CARIN = 'http://hl7.org/fhir/us/carin-bb/StructureDefinition';

  test('Organization and Practitioner: read only, with their C4BB profiles at 2.0.0', async () => {
    const byType = new Map((await capability()).rest[0]!.resource.map((r) => [r.type, r]));
    for (const type of ['Organization', 'Practitioner']) {
      assert.deepEqual(byType.get(type)!.supportedProfile, [`${CARIN}/C4BB-${type}|2.0.0`]);
      assert.deepEqual(byType.get(type)!.interaction, [{ code: 'read' }]);
    }
  });

  test('every advertised searchInclude returns included resources', async () => {
    const resources = (await capability()).rest[0]!.resource;
    const advertised = resources.flatMap((r) =>
      (r.searchInclude ?? []).map((value) => [r.type, value] as const),
    );
    assert.deepEqual(
      advertised.map(([, v]) => v),
      [
        'Coverage:payor',
        'Coverage:*',
        'ExplanationOfBenefit:patient',
        'ExplanationOfBenefit:provider',
        'ExplanationOfBenefit:care-team',
        'ExplanationOfBenefit:coverage',
        'ExplanationOfBenefit:insurer',
        'ExplanationOfBenefit:*',
      ],
    );
    for (const [type, value] of advertised) {
      const bundle = await search(`/v2/fhir/${type}?_include=${value}`);
      assert.ok(included(bundle).length > 0, value);
    }
  });

  test(
    "it is CARIN's own server statement's searchInclude less ExplanationOfBenefit:payee, plus Coverage:*",
    { skip: skipWithoutCarinPackage() },
    async () => {
      const c4bb = carinResources().get('CapabilityStatement-c4bb.json') as unknown as Capability;
      const carin = c4bb.rest[0]!.resource.flatMap((r) => r.searchInclude ?? []).sort();
      const ours = (await capability()).rest[0]!.resource.flatMap((r) => r.searchInclude ?? []);
      assert.deepEqual(
        carin.filter((v) => !ours.includes(v)),
        ['ExplanationOfBenefit:payee'],
      );
      assert.deepEqual(
        ours.filter((v) => !carin.includes(v)),
        ['Coverage:*'],
      );
    },
  );
});

describe('OpenAPI: _include and the directory reads are documented', () => {
  test('the searches list _include with its allowed values; the two reads are routes', async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { parameters?: { name: string; in: string; schema?: { items?: { enum?: string[] } } }[] } }
      >;
    };
    const includeOf = (path: string) =>
      doc.paths[path]!.get.parameters!.find((p) => p.in === 'query' && p.name === '_include')!.schema!.items!
        .enum;
    assert.deepEqual(includeOf('/v2/fhir/Coverage'), ['Coverage:payor', 'Coverage:*']);
    assert.equal(includeOf('/v2/fhir/ExplanationOfBenefit')!.length, 6);
    assert.ok(doc.paths['/v2/fhir/Organization/{id}']);
    assert.ok(doc.paths['/v2/fhir/Practitioner/{id}']);
  });
});
