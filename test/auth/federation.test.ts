import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, mock, test } from 'node:test';
import {
  alertText,
  CALLBACK_PATH,
  connectAndExchange,
  readFhir,
  returnFromIdp,
  signInLink,
  startAtLoginPage,
  type IdpFlow,
} from '../helpers/federation-flow.js';
import { Browser, unescapeHtml } from '../helpers/flow.js';
import { startServiceWithLogs, type LoggedService } from '../helpers/logged-service.js';
import type { TestApp } from '../helpers/pages.js';
import { freePort } from '../helpers/processes.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';
import { atIdp, startTestIdp, type TestIdp } from '../helpers/test-idp.js';

/**
 * Sign-in through the plan's OpenID Connect identity provider (issue 18), over HTTP: a real OpenID
 * Provider (node-oidc-provider) in this process as the IdP, a sandbox service as its relying party, linking
 * members by a claim that carries the FHIR Patient id. The happy path to the member's data, then every bad
 * case — each a page in the member's language, with nothing half-written.
 */

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Sandbox enrollee n (`BBUser0000n`) has Patient `-1999000000000(n+1)`; the service makes five. */
const patientOf = (n: number) => `-${19990000000001 + n}`;

const MEMBERS = {
  jane: { patient_id: patientOf(1), given_name: 'Jane', family_name: 'Smith' },
  tampered: { patient_id: patientOf(3) },
  offline: { patient_id: patientOf(4) },
  nobody: { patient_id: '-42' },
  claimless: { given_name: 'No', family_name: 'Claim' },
};

let idp: TestIdp;
let running: LoggedService;
let publicUrl: string;
let app: TestApp;

before(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({ redirectUris: [`${publicUrl}${CALLBACK_PATH}`], members: MEMBERS });
  running = await startServiceWithLogs(
    { ...idp.env(), PUBLIC_URL: publicUrl, IDP_LABEL: 'Acme Health', IDP_LABEL_ES: 'Acme Salud' },
    port,
  );
  app = await createTestApp(running);
});
after(async () => {
  await running?.close();
  await idp?.close();
});

/** What is stored: enrollees, identity links, login sessions, pending sign-ins, grants. */
async function counts() {
  const db = running.service.storage.db;
  const count = async (table: 'enrollees' | 'enrollee_identities' | 'sessions' | 'idp_requests' | 'grants') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    enrollees: await count('enrollees'),
    identities: await count('enrollee_identities'),
    sessions: await count('sessions'),
    pending: await count('idp_requests'),
    grants: await count('grants'),
  };
}

async function identityOf(subject: string) {
  return running.service.storage.db
    .selectFrom('enrollee_identities')
    .innerJoin('enrollees', 'enrollees.id', 'enrollee_identities.enrollee_id')
    .select(['enrollees.username', 'enrollees.patient_id', 'linked_at', 'last_sign_in_at'])
    .where('issuer', '=', idp.issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** A callback answered with an error page: its status, heading, alert text and retry link. */
async function errorPage(response: Response) {
  const html = await response.text();
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  const retry = /<a class="button" href="([^"]+)">([^<]*)<\/a>/.exec(html);
  return {
    status: response.status,
    html,
    lang: /<html lang="(\w+)">/.exec(html)?.[1],
    alert: alertText(html),
    retry: retry ? { href: unescapeHtml(retry[1]!), text: unescapeHtml(retry[2]!) } : undefined,
  };
}

const TEXT = {
  en: {
    stateInvalid:
      'This sign-in does not match a request started in this browser, was already used, or has expired. Return to the app and start again.',
    unavailable:
      "Your health plan's sign-in service cannot be reached right now. Please try again in about 30 seconds.",
    tokenInvalid:
      "The answer from your health plan's sign-in service could not be verified, so you were not signed in. Please try again.",
    noClaimsData:
      'You signed in, but no health plan claims data is linked to your account, so no app can be given access to it. Please contact your health plan.',
  },
  es: {
    unavailable:
      'No es posible comunicarse en este momento con el servicio de inicio de sesión de su plan de salud. Inténtelo de nuevo en unos 30 segundos.',
    tokenInvalid:
      'No se pudo verificar la respuesta del servicio de inicio de sesión de su plan de salud, por lo que no se inició su sesión. Inténtelo de nuevo.',
    noClaimsData:
      'Inició sesión, pero no hay datos de reclamos del plan de salud vinculados a su cuenta, por lo que no se puede dar acceso a ninguna aplicación. Comuníquese con su plan de salud.',
  },
};

describe('the login page', () => {
  test('sandbox: "Sign in with <label>" in the page language, and the test-account form below it', async () => {
    for (const [lang, label] of [
      ['en', 'Sign in with Acme Health'],
      ['es', 'Iniciar sesión con Acme Salud'],
    ] as const) {
      const flow = await startAtLoginPage(running.url, app, { lang });
      assert.equal(signInLink(flow.loginHtml)?.text, label);
      assert.match(flow.loginHtml, /<input id="password" name="password" type="password"/);
      const start = new URL(signInLink(flow.loginHtml)!.href, running.url);
      assert.equal(start.pathname, '/v2/accounts/idp/start');
      assert.equal(start.searchParams.get('lang'), lang);
      assert.match(start.searchParams.get('next') ?? '', /^\/v2\/o\/authorize\/\?client_id=/);
    }
  });

  test('the start sends the browser to the IdP with PKCE S256, state, nonce and the scopes; only hashes and the verifier are stored', async () => {
    const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
    const params = flow.idpUrl.searchParams;
    assert.equal(flow.idpUrl.origin, idp.issuer);
    assert.equal(params.get('client_id'), idp.clientId);
    assert.equal(params.get('response_type'), 'code');
    assert.equal(params.get('redirect_uri'), `${publicUrl}${CALLBACK_PATH}`);
    assert.equal(params.get('scope'), 'openid profile');
    assert.equal(params.get('code_challenge_method'), 'S256');
    assert.match(params.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((params.get('state') ?? '').length >= 32);
    assert.ok((params.get('nonce') ?? '').length >= 32);
    assert.equal(params.get('ui_locales'), 'es');
    const row = await running.service.storage.db
      .selectFrom('idp_requests')
      .selectAll()
      .where('state_hash', '=', sha256(params.get('state')!))
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(params.get('state')!), 'the state itself is not stored');
    assert.equal(row.nonce, params.get('nonce'));
    assert.equal(
      createHash('sha256').update(row.code_verifier).digest('base64url'),
      params.get('code_challenge'),
    );
    assert.equal(row.lang, 'es');
    assert.equal(Number(row.expires_at) - Number(row.created_at), 600_000);
    assert.ok(flow.browser.cookies.get('oe_idp'), 'the browser-binding cookie is set');
    assert.equal(row.browser_hash, sha256(flow.browser.cookies.get('oe_idp')!));
  });

  test('a next outside our pages is dropped (no open redirect)', async () => {
    const browser = new Browser(running.url);
    const start = await browser.get('/v2/accounts/idp/start?next=https%3A%2F%2Fevil.example%2F');
    assert.equal(start.status, 302);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const row = await running.service.storage.db
      .selectFrom('idp_requests')
      .select('next')
      .where('state_hash', '=', sha256(state))
      .executeTakeFirstOrThrow();
    assert.equal(row.next, '');
  });
});

describe('signing in through the IdP', () => {
  test('authorize → IdP → consent → token: the member linked to the sandbox enrollee of their Patient, and their data', async () => {
    const before = await counts();
    const flow = await startAtLoginPage(running.url, app);
    const { response } = await returnFromIdp(flow, publicUrl, 'jane');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), `/v2/o/authorize/?${flow.request.query}`);
    assert.ok(flow.browser.cookies.get('oe_session'), 'a session cookie, as after a password login');
    const tokens = await connectAndExchange(running.url, flow, response, app);
    assert.equal(tokens.patient, patientOf(1));
    const patient = await readFhir(running.url, `/v2/fhir/Patient/${patientOf(1)}`, tokens.access_token);
    assert.equal(patient.status, 200);
    assert.equal(patient.body.id, patientOf(1));
    const eobs = await readFhir(
      running.url,
      `/v2/fhir/ExplanationOfBenefit?patient=${patientOf(1)}`,
      tokens.access_token,
    );
    assert.equal(eobs.status, 200);
    assert.ok((eobs.body.total as number) >= 20);

    const linked = await identityOf('jane');
    assert.equal(linked?.username, 'BBUser00001', 'the existing enrollee of that Patient');
    const now = await counts();
    assert.equal(now.enrollees, before.enrollees, 'no new enrollee');
    assert.equal(now.identities, before.identities + 1);
  });

  test('signing in from the connected-apps page returns to it, signed in', async () => {
    const browser = new Browser(running.url);
    const page = await browser.get('/v2/accounts/connected-apps?lang=es');
    const login = await browser.get(page.headers.get('location')!);
    const link = signInLink(await login.text());
    assert.equal(link?.text, 'Iniciar sesión con Acme Salud');
    const start = await browser.get(link!.href);
    const flow: IdpFlow = {
      browser,
      request: { query: new URLSearchParams(), state: '', pkce: { verifier: '', challenge: '' } },
      loginHtml: '',
      idpUrl: new URL(start.headers.get('location')!),
    };
    const { response } = await returnFromIdp(flow, publicUrl, 'jane');
    assert.equal(response.headers.get('location'), '/v2/accounts/connected-apps?lang=es');
    const connected = await browser.get('/v2/accounts/connected-apps?lang=es');
    assert.equal(connected.status, 200);
    assert.match(await connected.text(), /Sus aplicaciones conectadas/);
  });

  test('a second sign-in finds the link: same enrollee, last sign-in moves, nothing new', async () => {
    const first = await identityOf('jane');
    const before = await counts();
    running.clock.advance(5_000);
    const flow = await startAtLoginPage(running.url, app);
    const { response } = await returnFromIdp(flow, publicUrl, 'jane');
    const tokens = await connectAndExchange(running.url, flow, response, app);
    assert.equal(tokens.patient, patientOf(1));
    const again = await identityOf('jane');
    assert.equal(again?.linked_at, first?.linked_at);
    assert.ok(Number(again?.last_sign_in_at) > Number(first?.last_sign_in_at));
    const now = await counts();
    assert.equal(now.enrollees, before.enrollees);
    assert.equal(now.identities, before.identities);
  });
});

describe('bad cases: a page in the member’s language, nothing half-written', () => {
  test('a replayed callback (same state) → 400 page', async () => {
    const flow = await startAtLoginPage(running.url, app);
    const { response, callbackUrl } = await returnFromIdp(flow, publicUrl, 'jane');
    assert.equal(response.status, 302);
    const replay = await errorPage(await flow.browser.get(`${CALLBACK_PATH}${callbackUrl.search}`));
    assert.equal(replay.status, 400);
    assert.equal(replay.alert, TEXT.en.stateInvalid);
  });

  test('a state we never issued, or none → 400 page; the Spanish page for a Spanish browser', async () => {
    const browser = new Browser(running.url, { 'accept-language': 'es-MX,es;q=0.9' });
    for (const query of [`?code=x&state=${randomBytes(32).toString('base64url')}`, '?code=x', '']) {
      const page = await errorPage(await browser.get(`${CALLBACK_PATH}${query}`));
      assert.equal(page.status, 400, query);
      assert.equal(page.lang, 'es');
      assert.match(page.alert ?? '', /^Este inicio de sesión no corresponde/);
    }
  });

  test('a callback in another browser (no binding cookie) → 400 page, and the sign-in is used up', async () => {
    const before = await counts();
    const flow = await startAtLoginPage(running.url, app);
    const url = await atIdp(flow.idpUrl.href, { login: 'jane' }, `${publicUrl}${CALLBACK_PATH}`);
    const stranger = new Browser(running.url);
    const page = await errorPage(await stranger.get(`${CALLBACK_PATH}${url.search}`));
    assert.equal(page.status, 400);
    assert.equal(page.alert, TEXT.en.stateInvalid);
    assert.equal(stranger.cookies.get('oe_session'), undefined);
    // The browser that started it cannot use it any more either: a state is good once.
    const late = await flow.browser.get(`${CALLBACK_PATH}${url.search}`);
    assert.equal(late.status, 400);
    assert.deepEqual(await counts(), before);
  });

  test('an expired sign-in (over 10 minutes at the IdP) → 400 page', async () => {
    const flow = await startAtLoginPage(running.url, app);
    running.clock.advance(601_000);
    const { response } = await returnFromIdp(flow, publicUrl, 'jane');
    const page = await errorPage(response);
    assert.equal(page.status, 400);
    assert.equal(page.alert, TEXT.en.stateInvalid);
  });

  test('the member cancels at the IdP → the app gets access_denied with its own state, as with Cancel', async () => {
    const before = await counts();
    const flow = await startAtLoginPage(running.url, app);
    const { response, callbackUrl } = await returnFromIdp(flow, publicUrl, 'cancel');
    assert.equal(callbackUrl.searchParams.get('error'), 'access_denied');
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, app.redirectUri);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), flow.request.state);
    assert.equal(location.searchParams.get('code'), null);
    assert.equal(flow.browser.cookies.get('oe_session'), undefined);
    assert.deepEqual(await counts(), before);
  });

  test('the member cancels a sign-in that did not come from an app (connected apps) → a page saying so', async () => {
    const browser = new Browser(running.url);
    const start = await browser.get(
      `/v2/accounts/idp/start?next=${encodeURIComponent('/v2/accounts/connected-apps?lang=es')}&lang=es`,
    );
    const flow: IdpFlow = {
      browser,
      request: { query: new URLSearchParams(), state: '', pkce: { verifier: '', challenge: '' } },
      loginHtml: '',
      idpUrl: new URL(start.headers.get('location')!),
    };
    const { response } = await returnFromIdp(flow, publicUrl, 'cancel');
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Se canceló el inicio de sesión\./);
  });

  test('the IdP unreachable at the token call → 503 page with a retry link; then the retry works', async () => {
    const before = await counts();
    const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
    const callbackUrl = await atIdp(flow.idpUrl.href, { login: 'offline' }, `${publicUrl}${CALLBACK_PATH}`);
    await idp.stop();
    let page;
    try {
      page = await errorPage(await flow.browser.get(`${CALLBACK_PATH}${callbackUrl.search}`));
    } finally {
      await idp.resume();
    }
    assert.equal(page.status, 503);
    assert.equal(page.lang, 'es');
    assert.equal(page.alert, TEXT.es.unavailable);
    assert.equal(page.retry?.text, 'Intentar de nuevo');
    const retry = new URL(page.retry!.href, running.url);
    assert.equal(retry.pathname, '/v2/accounts/idp/start');
    assert.equal(retry.searchParams.get('next'), `/v2/o/authorize/?${flow.request.query}`);
    assert.deepEqual(await counts(), before, 'no enrollee, identity or session; the sign-in is used up');

    const again = await flow.browser.get(page.retry!.href);
    assert.equal(again.status, 302);
    const retried = { ...flow, idpUrl: new URL(again.headers.get('location')!) };
    const { response } = await returnFromIdp(retried, publicUrl, 'offline');
    const tokens = await connectAndExchange(running.url, retried, response, app);
    assert.equal(tokens.patient, patientOf(4));
  });

  test('a code the IdP refuses (invalid_grant) → 502 page with a retry link; nothing written', async () => {
    const before = await counts();
    const flow = await startAtLoginPage(running.url, app);
    const url = await atIdp(flow.idpUrl.href, { login: 'tampered' }, `${publicUrl}${CALLBACK_PATH}`);
    url.searchParams.set('code', randomBytes(32).toString('base64url'));
    const page = await errorPage(await flow.browser.get(`${CALLBACK_PATH}${url.search}`));
    assert.equal(page.status, 502);
    assert.equal(
      page.alert,
      "Your health plan's sign-in service did not complete the sign-in. Please try again.",
    );
    assert.equal(new URL(page.retry!.href, running.url).pathname, '/v2/accounts/idp/start');
    assert.deepEqual(await counts(), before);
  });

  test('the IdP answers an error other than access_denied: busy → 503, anything else → 502, both with a retry link', async () => {
    for (const [error, status] of [
      ['temporarily_unavailable', 503],
      ['server_error', 503],
      ['login_required', 502],
      ['invalid_scope', 502],
    ] as const) {
      const flow = await startAtLoginPage(running.url, app);
      const state = flow.idpUrl.searchParams.get('state')!;
      const page = await errorPage(await flow.browser.get(`${CALLBACK_PATH}?error=${error}&state=${state}`));
      assert.equal(page.status, status, error);
      assert.ok(page.retry, `${error}: a retry link`);
      assert.equal(flow.browser.cookies.get('oe_session'), undefined);
    }
  });

  for (const [name, change] of [
    ['signed with a key the IdP never published', (p) => ({ ...p, signWith: 'stranger' })],
    ['for another client (aud)', (p) => ({ ...p, claims: { ...p.claims, aud: 'someone-else' } })],
    ['from another issuer (iss)', (p) => ({ ...p, claims: { ...p.claims, iss: 'https://evil.example' } })],
    [
      'expired (exp)',
      (p) => ({ ...p, claims: { ...p.claims, iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 } }),
    ],
    ['with another nonce', (p) => ({ ...p, claims: { ...p.claims, nonce: 'not-the-one-we-sent' } })],
  ] as [string, Parameters<TestIdp['tamperIdToken']>[0]][]) {
    test(`an ID token ${name} → 502 page; no enrollee, identity or session`, async () => {
      const before = await counts();
      const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
      idp.tamperIdToken(change);
      let response;
      try {
        response = (await returnFromIdp(flow, publicUrl, 'tampered')).response;
      } finally {
        idp.tamperIdToken(undefined);
      }
      const page = await errorPage(response);
      assert.equal(page.status, 502);
      assert.equal(page.alert, TEXT.es.tokenInvalid);
      assert.equal(new URL(page.retry!.href, running.url).pathname, '/v2/accounts/idp/start');
      assert.equal(flow.browser.cookies.get('oe_session'), undefined);
      assert.deepEqual(await counts(), before);
      assert.equal(await identityOf('tampered'), undefined);
    });
  }

  test('the untampered ID token of the same member then signs in (the cases above failed on their one change)', async () => {
    const flow = await startAtLoginPage(running.url, app);
    const { response } = await returnFromIdp(flow, publicUrl, 'tampered');
    assert.equal(response.status, 302, await response.clone().text());
    assert.equal((await identityOf('tampered'))?.patient_id, patientOf(3));
  });

  for (const login of ['nobody', 'claimless'] as const) {
    test(`a member whose claim links to no Patient (${login}) → 403 page; no enrollee, identity, session or grant`, async () => {
      const before = await counts();
      const flow = await startAtLoginPage(running.url, app, { lang: 'es' });
      const { response } = await returnFromIdp(flow, publicUrl, login);
      const page = await errorPage(response);
      assert.equal(page.status, 403);
      assert.equal(page.alert, TEXT.es.noClaimsData);
      assert.equal(flow.browser.cookies.get('oe_session'), undefined);
      assert.deepEqual(await counts(), before);
      // Nothing lets the app on: the authorize request still asks for a login.
      const authorize = await flow.browser.get(`/v2/o/authorize/?${flow.request.query}`);
      assert.match(authorize.headers.get('location') ?? '', /^\/v2\/accounts\/login\?/);
    });
  }
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

describe('the audit log', () => {
  test('sign-ins, links and failures are audited; no code, token or client secret is logged', () => {
    const records = running.records().filter((r) => r.channel === 'audit');
    const events = new Set(records.map((r) => r.event));
    for (const event of ['login', 'identity_linked', 'idp_sign_in_failed', 'idp_sign_in_cancelled']) {
      assert.ok(events.has(event), `${event} is audited`);
    }
    const login = records.find((r) => r.event === 'login' && r.method === 'idp');
    assert.equal(login?.issuer, idp.issuer);
    assert.equal(login?.subject, 'jane');
    const reasons = new Set(records.filter((r) => r.event === 'idp_sign_in_failed').map((r) => r.reason));
    for (const reason of ['state', 'unavailable', 'unverified', 'no-claims-data'])
      assert.ok(reasons.has(reason));
    const everything = running.lines.join('\n');
    assert.ok(!everything.includes(idp.clientSecret), 'no client secret in the logs');
    assert.doesNotMatch(everything, /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./, 'no JWT in the logs');
    assert.doesNotMatch(everything, /[?&]code=[A-Za-z0-9_-]{20,}/, 'no authorization code in the logs');
  });

  test('identity_linked names the identity as `enrollees list` shows it: the issuer and the raw sub', async () => {
    const linked = running.records().filter((r) => r.channel === 'audit' && r.event === 'identity_linked');
    assert.ok(linked.length > 0);
    const rows = await running.service.storage.db
      .selectFrom('enrollee_identities')
      .select(['issuer', 'subject', 'enrollee_id'])
      .execute();
    for (const record of linked) {
      const row = rows.find((r) => r.issuer === record.issuer && r.subject === record.subject);
      assert.ok(row, `${String(record.subject)}: the logged (issuer, subject) is a stored link`);
      assert.equal(row.enrollee_id, record.enrollee);
    }
    assert.deepEqual(linked.map((r) => r.subject).sort(), ['jane', 'offline', 'tampered']);
  });
});

describe('the IdP rotates its signing key', () => {
  let rotating: TestIdp;
  let service: RunningService;
  let url: string;
  let rotatingApp: TestApp;

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    rotating = await startTestIdp({ redirectUris: [`${url}${CALLBACK_PATH}`], members: MEMBERS });
    service = await startService({ ...rotating.env(), PUBLIC_URL: url }, port);
    rotatingApp = await createTestApp(service);
  });
  after(async () => {
    await service?.close();
    await rotating?.close();
  });

  async function signIn(login: string) {
    const flow = await startAtLoginPage(service.url, rotatingApp);
    return (await returnFromIdp(flow, url, login)).response;
  }

  test('an ID token signed with a key the cached JWKS lacks makes one refetch (at most one a minute)', async () => {
    assert.equal((await signIn('jane')).status, 302);
    const fetched = rotating.hits('/jwks');
    assert.equal(fetched, 1, 'the JWKS was fetched once and cached');
    assert.equal((await signIn('jane')).status, 302);
    assert.equal(rotating.hits('/jwks'), 1, 'a known key: no refetch');

    rotating.rotateKey();
    // Within a minute of the last fetch openid-client does not fetch again (a flood of unknown `kid`s
    // cannot make it hammer the IdP): the sign-in fails, with nothing written.
    const refused = await signIn('jane');
    assert.equal(refused.status, 502);
    assert.equal(rotating.hits('/jwks'), 1);

    // openid-client reads the wall clock for the age of its JWKS cache: a minute later, the unknown key
    // makes exactly one refetch, and the sign-in succeeds.
    const realNow = Date.now.bind(Date);
    const later = mock.method(Date, 'now', () => realNow() + 61_000);
    try {
      assert.equal((await signIn('jane')).status, 302);
      assert.equal(rotating.hits('/jwks'), 2);
      assert.equal((await signIn('jane')).status, 302);
      assert.equal(rotating.hits('/jwks'), 2, 'and the new set is cached');
    } finally {
      later.mock.restore();
    }
  });
});

describe('the IdP cannot be discovered', () => {
  let service: RunningService;
  before(async () => {
    const nobody = await freePort();
    service = await startService({
      IDP_ISSUER: `http://127.0.0.1:${nobody}`,
      IDP_CLIENT_ID: 'openenroll',
      IDP_CLIENT_SECRET: 'secret',
      IDP_PATIENT_ID_CLAIM: 'patient_id',
    });
  });
  after(() => service?.close());

  test('"Sign in with …" → 503 page in the member’s language with a retry link; nothing stored', async () => {
    const unreachableApp = await createTestApp(service);
    for (const lang of ['en', 'es'] as const) {
      const browser = new Browser(service.url);
      const authorize = await browser.get(
        `/v2/o/authorize/?client_id=${unreachableApp.clientId}&redirect_uri=${encodeURIComponent(unreachableApp.redirectUri)}` +
          `&response_type=code&state=${'s'.repeat(16)}&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256&lang=${lang}`,
      );
      const login = await (await browser.get(authorize.headers.get('location')!)).text();
      const page = await errorPage(await browser.get(signInLink(login)!.href));
      assert.equal(page.status, 503);
      assert.equal(page.lang, lang);
      assert.equal(page.alert, TEXT[lang].unavailable);
      assert.equal(page.retry?.href, signInLink(login)!.href, 'the retry link starts the sign-in again');
    }
    const pending = await service.service.storage.db
      .selectFrom('idp_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(pending.n), 0);
  });
});

describe('under an https PUBLIC_URL', () => {
  let secure: RunningService;
  before(async () => {
    secure = await startService({ ...idp.env(), PUBLIC_URL: 'https://auth.plan.example' });
  });
  after(() => secure?.close());

  test('the browser-binding cookie is __Host- prefixed, Secure, HttpOnly, SameSite=Lax; the redirect URI is https', async () => {
    const start = await fetch(`${secure.url}/v2/accounts/idp/start`, { redirect: 'manual' });
    assert.equal(start.status, 302);
    const location = new URL(start.headers.get('location')!);
    assert.equal(location.searchParams.get('redirect_uri'), `https://auth.plan.example${CALLBACK_PATH}`);
    const cookie = start.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-oe_idp='))
      ?.split(';')
      .map((part) => part.trim().toLowerCase());
    assert.ok(cookie, '__Host-oe_idp is set');
    for (const attribute of ['secure', 'httponly', 'samesite=lax', 'path=/', 'max-age=600']) {
      assert.ok(cookie.includes(attribute), attribute);
    }
    assert.ok(!cookie.some((part) => part.startsWith('domain=')));
  });
});
