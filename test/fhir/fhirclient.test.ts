import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { authorizeFromUrl, startPublicService } from '../helpers/sdk-flow.js';
import { createTestApp, type RunningService } from '../helpers/service.js';

/**
 * `fhirclient` (SMART on FHIR's own JavaScript client), unchanged, as a confidential client in a tiny Node
 * app: a standalone launch from the FHIR base URL alone — discovery through
 * `/.well-known/smart-configuration`, authorize (with PKCE, since we advertise S256), code exchange with HTTP
 * Basic, then the Patient, the ExplanationOfBenefit bundle and a refresh through the client it returns.
 * fhirclient fetches with its own `node-fetch`, so what it sends is observed on the service's HTTP server.
 */

const PATIENT = '-19990000000001'; // BBUser00000
const SCOPE = [
  'launch/patient',
  'openid',
  'fhirUser',
  'patient/Patient.rs',
  'patient/ExplanationOfBenefit.rs',
  'offline_access',
].join(' ');

let running: RunningService;
let fhirBase: string;
before(async () => {
  running = await startPublicService();
  fhirBase = `${running.url}/v2/fhir`;
});
after(() => running.close());

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

/** Every request the service receives while `body` runs (method, path and the headers asserted on). */
async function watchService<T>(body: (seen: Seen[]) => Promise<T>): Promise<T> {
  const seen: Seen[] = [];
  const listener = (request: IncomingMessage) => {
    seen.push({
      method: request.method ?? '',
      path: new URL(request.url ?? '/', running.url).pathname,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
    });
  };
  const server = running.service.app.server;
  server.on('request', listener);
  try {
    return await body(seen);
  } finally {
    server.off('request', listener);
  }
}

/*
 * fhirclient's type declarations turn on the DOM library for the whole program (`/// <reference
 * lib="dom" />`), which retypes Node's `fetch` in every other file; so it is loaded untyped, and the few
 * parts the test uses are named here.
 */
interface SmartStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
  unset(key: string): Promise<boolean>;
}

interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  token_type?: string;
  scope?: string;
  patient?: string;
  id_token?: string;
  [field: string]: unknown;
}

interface SmartClient {
  state: {
    key: string;
    tokenResponse?: TokenResponse;
    tokenUri?: string;
    authorizeUri?: string;
    codeVerifier?: string;
  };
  patient: {
    id: string | null;
    read(): Promise<{ resourceType: string; id?: string }>;
    request(path: string): Promise<Bundle>;
  };
  user: { fhirUser: string | null };
  request<T>(path: string): Promise<T>;
  refresh(): Promise<{ tokenResponse?: TokenResponse }>;
}

interface AuthorizeOptions {
  iss: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  redirectUri: string;
}

const smart = createRequire(import.meta.url)('fhirclient') as (
  request: IncomingMessage,
  response: ServerResponse,
  storage: SmartStorage,
) => { authorize(options: AuthorizeOptions): Promise<unknown>; ready(): Promise<SmartClient> };

/** fhirclient's state store in a Node app; a real app keys it by its own session (the client's state). */
function memoryStorage(): SmartStorage {
  const map = new Map<string, unknown>();
  return {
    async get(key) {
      return map.get(key);
    },
    async set(key, value) {
      map.set(key, value);
      return value;
    },
    async unset(key) {
      return map.delete(key);
    },
  };
}

interface Bundle {
  resourceType: string;
  type: string;
  entry?: { resource: { resourceType: string; patient?: { reference?: string } } }[];
}

/** What the app's callback reports after `ready()`: read through the client fhirclient hands back. */
interface CallbackReport {
  patientId: string | null;
  userFhirUser: string | null;
  stateKeyMatches: boolean;
  tokenResponse: TokenResponse;
  tokenUri: string | undefined;
  authorizeUri: string | undefined;
  codeVerifierKept: boolean;
  patient: { resourceType: string; id?: string };
  eob: Bundle;
  eobThroughPatientApi: Bundle;
  refreshed?: TokenResponse;
  afterRefresh?: { resourceType: string; id?: string };
}

/**
 * The "app": `/launch` starts the standalone launch, `/callback` completes it and answers with a report of
 * what the client could read, or 500 with fhirclient's error (and the HTTP status behind it, if any).
 */
async function startSmartApp(o: { refresh: boolean }) {
  const storage = memoryStorage();
  const credentials = { clientId: '', clientSecret: '' };
  let launchedState: string | undefined;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${origin}/callback`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/launch') {
      await smart(request, response, storage).authorize({
        iss: fhirBase,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        scope: SCOPE,
        redirectUri,
      });
      return;
    }
    if (url.pathname === '/callback') {
      const client = await smart(request, response, storage).ready();
      const state = client.state;
      const patientId = client.patient.id;
      const report: CallbackReport = {
        patientId,
        userFhirUser: client.user.fhirUser,
        // ready() completed the launch it stored under the `state` that came back on the redirect.
        stateKeyMatches: state.key === launchedState && url.searchParams.get('state') === state.key,
        tokenResponse: { ...state.tokenResponse },
        tokenUri: state.tokenUri,
        authorizeUri: state.authorizeUri,
        codeVerifierKept: typeof state.codeVerifier === 'string' && state.codeVerifier.length >= 43,
        patient: await client.patient.read(),
        eob: await client.request<Bundle>(
          `ExplanationOfBenefit?patient=${encodeURIComponent(patientId ?? '')}`,
        ),
        // The patient-compartment helper finds the search parameter in the CapabilityStatement.
        eobThroughPatientApi: await client.patient.request('ExplanationOfBenefit'),
      };
      if (o.refresh) {
        const refreshedState = await client.refresh();
        report.refreshed = { ...refreshedState.tokenResponse };
        report.afterRefresh = await client.patient.read();
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report));
      return;
    }
    response.writeHead(404).end();
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const failure = { error: message, status: (error as { status?: unknown }).status };
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(failure));
    });
  });

  return {
    origin,
    redirectUri,
    credentials,
    /** The browser's part: /launch → our authorize → login + consent pages → the app's /callback. */
    async launch(allow = true) {
      const launched = await fetch(`${origin}/launch`, { redirect: 'manual' });
      if (launched.status !== 302)
        assert.fail(`/launch answered ${launched.status}: ${await launched.text()}`);
      const authorizeUrl = new URL(launched.headers.get('location')!);
      launchedState = authorizeUrl.searchParams.get('state') ?? undefined;
      const { location, consentHtml } = await authorizeFromUrl(authorizeUrl, { allow });
      const callback = await fetch(location);
      const body = (await callback.json()) as unknown;
      return { authorizeUrl, location, consentHtml, status: callback.status, body };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

type SmartApp = Awaited<ReturnType<typeof startSmartApp>>;

/** A running app registered with the service for its own callback URL. */
async function registeredApp(o: { refresh: boolean; wrongSecret?: boolean }): Promise<SmartApp> {
  const app = await startSmartApp(o);
  const registered = await createTestApp(running, { redirectUris: [app.redirectUri] });
  app.credentials.clientId = registered.clientId;
  app.credentials.clientSecret = registered.clientSecret + (o.wrongSecret ? 'x' : '');
  return app;
}

describe('fhirclient (SMART on FHIR JavaScript client) against the service', () => {
  test('standalone launch, confidential client: discovery → authorize → token → Patient, EOBs → refresh', async () => {
    const app = await registeredApp({ refresh: true });
    try {
      const { clientId, clientSecret } = app.credentials;
      const { authorizeUrl, location, consentHtml, status, body, seen } = await watchService(
        async (seen) => ({
          ...(await app.launch()),
          seen,
        }),
      );
      assert.equal(status, 200, JSON.stringify(body));
      const report = body as CallbackReport;

      // Discovery: the SMART configuration under the FHIR base, first and once (no CapabilityStatement
      // fallback, which fhirclient takes only when the well-known document fails). fhirclient caches it
      // per URL for the life of the process, so only this first launch of the file fetches it.
      const discovery = '/v2/fhir/.well-known/smart-configuration';
      assert.deepEqual([seen[0]?.method, seen[0]?.path], ['GET', discovery]);
      assert.equal(seen.filter((s) => s.path === discovery).length, 1);
      assert.equal(report.authorizeUri, `${running.url}/v2/o/authorize/`);
      assert.equal(report.tokenUri, `${running.url}/v2/o/token/`);

      // The authorize request fhirclient built: aud is the FHIR base, PKCE S256 (we advertise it).
      assert.equal(authorizeUrl.origin + authorizeUrl.pathname, `${running.url}/v2/o/authorize/`);
      const q = authorizeUrl.searchParams;
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('client_id'), clientId);
      assert.equal(q.get('redirect_uri'), app.redirectUri);
      assert.equal(q.get('aud'), fhirBase);
      assert.equal(q.get('scope'), SCOPE);
      assert.equal(q.get('code_challenge_method'), 'S256');
      assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(consentHtml, /name="csrf"/);
      assert.equal(location.origin + location.pathname, app.redirectUri);
      assert.equal(location.searchParams.get('state'), q.get('state'));
      assert.ok(report.stateKeyMatches, 'ready() completed the launch stored under the echoed state');
      assert.ok(report.codeVerifierKept, 'fhirclient kept a PKCE verifier for the code exchange');

      // The code exchange and the refresh: forms POSTed to the token endpoint with HTTP Basic (id:secret).
      const tokenCalls = seen.filter((s) => s.path === '/v2/o/token/');
      assert.equal(tokenCalls.length, 2, 'one code exchange and one refresh');
      const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      for (const call of tokenCalls) {
        assert.equal(call.method, 'POST');
        assert.equal(call.contentType, 'application/x-www-form-urlencoded');
        assert.equal(call.authorization, basic);
      }
      // FHIR reads carry a bearer token; the CapabilityStatement is read without one.
      const fhirReads = seen.filter((s) => s.path.startsWith('/v2/fhir/') && s.path !== discovery);
      assert.ok(fhirReads.some((s) => s.path === `/v2/fhir/Patient/${PATIENT}`));
      assert.equal(fhirReads.filter((s) => s.path === '/v2/fhir/ExplanationOfBenefit').length, 2);
      for (const read of fhirReads.filter((s) => s.path !== '/v2/fhir/metadata')) {
        assert.match(read.authorization ?? '', /^Bearer \S{30,}$/, `${read.path} sent a bearer token`);
      }

      // The token response as fhirclient stored it.
      const token = report.tokenResponse;
      assert.equal(token.token_type, 'Bearer');
      assert.equal(token.patient, PATIENT);
      assert.ok(typeof token.access_token === 'string' && token.access_token.length >= 30);
      assert.ok(typeof token.refresh_token === 'string' && token.refresh_token.length >= 30);
      assert.ok(typeof token.id_token === 'string', 'openid gives an ID token');
      const granted = String(token.scope).split(' ');
      for (const s of SCOPE.split(' '))
        assert.ok(granted.includes(s), `granted ${s}: ${String(token.scope)}`);
      assert.equal(report.patientId, PATIENT);
      // fhirclient takes the user from the ID token's `fhirUser` (ours: the Patient's absolute URL).
      assert.equal(report.userFhirUser, `Patient/${PATIENT}`);

      // The Patient and the EOB bundle through fhirclient's request API.
      assert.equal(report.patient.resourceType, 'Patient');
      assert.equal(report.patient.id, PATIENT);
      for (const eob of [report.eob, report.eobThroughPatientApi]) {
        assert.equal(eob.resourceType, 'Bundle');
        assert.equal(eob.type, 'searchset');
        assert.ok(eob.entry && eob.entry.length > 0, 'the enrollee has EOBs');
        for (const entry of eob.entry) {
          assert.equal(entry.resource.resourceType, 'ExplanationOfBenefit');
          assert.equal(entry.resource.patient?.reference, `Patient/${PATIENT}`);
        }
      }
      assert.deepEqual(
        report.eobThroughPatientApi.entry!.map((e) => e.resource),
        report.eob.entry!.map((e) => e.resource),
      );

      // client.refresh(): a new access token and a rotated refresh token; the new token reads the Patient.
      const refreshed = report.refreshed!;
      assert.ok(refreshed.access_token && refreshed.access_token !== token.access_token);
      assert.ok(refreshed.refresh_token && refreshed.refresh_token !== token.refresh_token);
      assert.equal(refreshed.patient, PATIENT);
      assert.equal(report.afterRefresh?.id, PATIENT);
    } finally {
      await app.close();
    }
  });

  test('a wrong client secret: the code exchange is refused with 401 and ready() rejects', async () => {
    const app = await registeredApp({ refresh: false, wrongSecret: true });
    try {
      const { status, body } = await app.launch();
      assert.equal(status, 500);
      assert.equal((body as { status?: number }).status, 401, JSON.stringify(body));
    } finally {
      await app.close();
    }
  });

  test('the enrollee clicks Cancel: ready() rejects with access_denied', async () => {
    const app = await registeredApp({ refresh: false });
    try {
      const { location, status, body } = await app.launch(false);
      assert.equal(location.searchParams.get('error'), 'access_denied');
      assert.equal(status, 500);
      assert.match((body as { error: string }).error, /^access_denied\b/);
    } finally {
      await app.close();
    }
  });
});
