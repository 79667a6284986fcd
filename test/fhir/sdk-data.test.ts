import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BlueButton, type AuthorizationToken, type Environments } from 'cms-bluebutton-sdk';
import { authorizeFromUrl, startPublicService } from '../helpers/sdk-flow.js';
import { createTestApp, type RunningService } from '../helpers/service.js';

/**
 * The official Node SDK (`cms-bluebutton-sdk`), unchanged, reading claims data from the running service:
 * its data helpers call `<baseUrl>/v2/fhir/<Type>/` and `<baseUrl>/v2/connect/userinfo`, and `getPages`
 * follows a Bundle's `next` link only when it starts with the SDK's `baseUrl` — so the service runs with
 * `PUBLIC_URL` equal to the URL the SDK is pointed at.
 */

const CALLBACK = 'http://localhost:3001/api/bluebutton/callback/';
const PATIENT = '-19990000000001'; // BBUser00000

interface Bundle {
  resourceType: string;
  type: string;
  total: number;
  link: { relation: string; url: string }[];
  entry?: {
    fullUrl: string;
    resource: {
      resourceType: string;
      id: string;
      beneficiary?: { reference: string };
      patient?: { reference: string };
    };
  }[];
}

let running: RunningService;
let bb: BlueButton;
let token: AuthorizationToken;

before(async () => {
  running = await startPublicService({ SANDBOX_ENROLLEES: '3' });
  const app = await createTestApp(running, { redirectUris: [CALLBACK] });
  bb = new BlueButton({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    callbackUrl: app.redirectUri,
    version: '2',
    environment: 'LOCAL' as Environments,
    retrySettings: { total: 0, backoffFactor: 1, statusForcelist: [500, 502, 503, 504] },
  });
  bb.baseUrl = running.url;

  const authData = bb.generateAuthData();
  const { location } = await authorizeFromUrl(bb.generateAuthorizeUrl(authData), {
    username: 'BBUser00000',
    password: 'PW00000!',
  });
  assert.equal(location.origin + location.pathname, CALLBACK);
  assert.equal(location.searchParams.get('error'), null);
  token = await bb.getAuthorizationToken(
    authData,
    location.searchParams.get('code') ?? undefined,
    location.searchParams.get('state') ?? undefined,
  );
  assert.equal(token.patient, PATIENT);
});
after(() => running?.close());

/** A successful searchset Bundle from an SDK call (the SDK resolves with the error response on 4xx/5xx). */
function searchset(result: { response?: { status: number; data: unknown } | null }, what: string): Bundle {
  assert.ok(result.response, `${what}: no HTTP response`);
  assert.equal(result.response.status, 200, `${what}: ${JSON.stringify(result.response.data)}`);
  const bundle = result.response.data as Bundle;
  assert.equal(bundle.resourceType, 'Bundle', what);
  assert.equal(bundle.type, 'searchset', what);
  return bundle;
}

const nextOf = (b: Bundle) => b.link.find((l) => l.relation === 'next')?.url;

describe('cms-bluebutton-sdk reads claims data from the service', () => {
  test('the service advertises its public URL, which is the SDK base URL', () => {
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(bb.baseUrl, running.url);
  });

  test('getPatientData: a searchset with the authorized patient only', async () => {
    const result = await bb.getPatientData(token);
    assert.equal(result.token, token, 'no refresh for a live token');
    assert.equal(result.response?.config.url, `${running.url}/v2/fhir/Patient/`);
    const bundle = searchset(result, 'Patient search');
    assert.equal(bundle.total, 1);
    assert.equal(bundle.entry?.length, 1);
    const [entry] = bundle.entry!;
    assert.equal(entry!.resource.resourceType, 'Patient');
    assert.equal(entry!.resource.id, PATIENT);
    assert.equal(entry!.fullUrl, `${running.url}/v2/fhir/Patient/${PATIENT}`);
  });

  test('getCoverageData: at least three coverages, all for the patient', async () => {
    const result = await bb.getCoverageData(token);
    assert.equal(result.response?.config.url, `${running.url}/v2/fhir/Coverage/`);
    const bundle = searchset(result, 'Coverage search');
    const entries = bundle.entry ?? [];
    assert.ok(bundle.total >= 3, `total ${bundle.total}`);
    assert.equal(entries.length, bundle.total, 'all coverages fit on the first page');
    assert.equal(nextOf(bundle), undefined);
    assert.equal(new Set(entries.map((e) => e.resource.id)).size, entries.length, 'no duplicates');
    for (const e of entries) {
      assert.equal(e.resource.resourceType, 'Coverage');
      assert.equal(e.resource.beneficiary?.reference, `Patient/${PATIENT}`, e.resource.id);
      assert.equal(e.fullUrl, `${running.url}/v2/fhir/Coverage/${e.resource.id}`);
    }
  });

  test('getExplanationOfBenefitData + getPages: every claim across all pages, once each', async () => {
    const result = await bb.getExplanationOfBenefitData(token);
    assert.equal(result.response?.config.url, `${running.url}/v2/fhir/ExplanationOfBenefit/`);
    const first = searchset(result, 'EOB search');
    assert.ok(first.total > 10, `total ${first.total} spans more than one page`);
    const firstNext = nextOf(first);
    assert.ok(firstNext?.startsWith(`${running.url}/v2/fhir/ExplanationOfBenefit?`), firstNext);

    const { token: after, pages } = await bb.getPages(first, token);
    assert.equal(after, token, 'no refresh for a live token');
    assert.equal(pages.length, Math.ceil(first.total / (first.entry?.length ?? 1)));
    assert.ok(pages.length > 1, `${pages.length} page(s)`);
    const ids: string[] = [];
    pages.forEach((page: unknown, i: number) => {
      // getPages stops silently at a failed page (its body has no `next`): every page must be a Bundle.
      const bundle = page as Bundle;
      assert.equal(bundle?.resourceType, 'Bundle', `page ${i}: ${JSON.stringify(page)}`);
      assert.equal(bundle.type, 'searchset', `page ${i}`);
      assert.equal(bundle.total, first.total, `page ${i} total`);
      assert.ok((bundle.entry?.length ?? 0) > 0, `page ${i} has entries`);
      for (const e of bundle.entry ?? []) {
        assert.equal(e.resource.resourceType, 'ExplanationOfBenefit');
        assert.equal(e.resource.patient?.reference, `Patient/${PATIENT}`, e.resource.id);
        ids.push(e.resource.id);
      }
    });
    assert.equal(nextOf(pages.at(-1) as Bundle), undefined, 'the last page has no next link');
    assert.equal(ids.length, first.total, 'entries collected = total');
    assert.equal(new Set(ids).size, ids.length, 'no duplicates across pages');
  });

  test('getProfileData: userinfo names the patient', async () => {
    const result = await bb.getProfileData(token);
    assert.equal(result.response?.status, 200);
    assert.equal(result.response?.config.url, `${running.url}/v2/connect/userinfo`);
    const info = result.response?.data as Record<string, unknown>;
    assert.equal(info.sub, PATIENT);
    assert.equal(info.patient, PATIENT);
  });
});
