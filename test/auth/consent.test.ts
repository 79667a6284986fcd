import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Browser, hiddenField } from '../helpers/flow.js';
import {
  approveAndExchange,
  authorizeRequest,
  CONSENT_PATH,
  consentForm,
  exchangeCode,
  LOGIN_PATH,
  loggedInBrowser,
  openConsent,
  refresh,
  thirteenMonthsDate,
  type OpenConsent,
  type TestApp,
} from '../helpers/pages.js';
import { createTestApp, startService, type RunningService } from '../helpers/service.js';

let running: RunningService;
let browser: Browser;

before(async () => {
  running = await startService();
  browser = await loggedInBrowser(running);
});
after(() => running.close());

const PERSONAL = [
  'patient/Patient.rs',
  'patient/Patient.read',
  'patient/Patient.r',
  'patient/Patient.s',
  'profile',
];

function scopesOf(token: Record<string, unknown>): string[] {
  assert.equal(typeof token.scope, 'string');
  return (token.scope as string).split(' ');
}

/** A refused consent POST: a 4xx and no redirect carrying a code. */
async function assertRefused(response: Response, status?: number) {
  const body = await response.text();
  if (status !== undefined) assert.equal(response.status, status, body);
  assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}: ${body}`);
  assert.equal(response.headers.get('location'), null);
}

describe('consent: scopes', () => {
  test('no scope asked → the default scopes', async () => {
    const app = await createTestApp(running);
    const token = await approveAndExchange(running, app, await openConsent(browser, app));
    const scopes = scopesOf(token);
    for (const scope of [
      'patient/Patient.rs',
      'patient/Coverage.rs',
      'patient/ExplanationOfBenefit.rs',
      'profile',
    ]) {
      assert.ok(scopes.includes(scope), `${scope} in ${token.scope}`);
    }
  });

  test('the personal-information checkbox is shown, checked, when the app requires demographic data', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: true });
    const { html } = await openConsent(browser, app);
    assert.match(html, /<input type="checkbox"[^>]*name="share_demographic_scopes" value="True" checked>/);
    assert.ok(html.includes('Personal Information'));
  });

  test('unchecking personal information removes patient/Patient.* and profile', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: true });
    const token = await approveAndExchange(running, app, await openConsent(browser, app), { share: false });
    const scopes = scopesOf(token);
    assert.deepEqual(
      scopes.filter((s) => PERSONAL.includes(s)),
      [],
    );
    assert.ok(scopes.includes('patient/Coverage.rs'));
    assert.ok(scopes.includes('patient/ExplanationOfBenefit.rs'));
  });

  test('an app without demographic data: no checkbox, never personal scopes', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: false });
    const plain = await openConsent(browser, app);
    assert.ok(!plain.html.includes('share_demographic_scopes'));
    assert.ok(!plain.html.includes('Personal Information'));
    assert.deepEqual(
      scopesOf(await approveAndExchange(running, app, plain)).filter((s) => PERSONAL.includes(s)),
      [],
    );

    // Asking for them and forging the checkbox changes nothing.
    const asked = await openConsent(browser, app, {
      scope: 'patient/Patient.rs profile patient/Coverage.rs',
    });
    const decision = await browser.postForm(asked.path, {
      csrf: asked.csrf,
      allow: 'Connect',
      share_demographic_scopes: ['False', 'True'],
    });
    assert.equal(decision.status, 302);
    const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
    const token = await exchangeCode(running, app, code, asked.request.pkce.verifier);
    assert.equal(token.status, 200, token.text);
    assert.deepEqual(scopesOf(token.body as Record<string, unknown>), ['patient/Coverage.rs']);
  });

  test('asking only for patient/Patient.rs and unchecking → access_denied', async () => {
    const app = await createTestApp(running);
    const consent = await openConsent(browser, app, { scope: 'patient/Patient.rs' });
    const decision = await browser.postForm(consent.path, consentForm(consent, { share: false }));
    assert.equal(decision.status, 302);
    const target = new URL(decision.headers.get('location')!);
    assert.equal(`${target.origin}${target.pathname}`, app.redirectUri);
    assert.equal(target.searchParams.get('error'), 'access_denied');
    assert.equal(target.searchParams.get('state'), consent.request.state);
    assert.equal(target.searchParams.get('code'), null);
  });

  test('.r + .s condense to .rs; a lone .r stays', async () => {
    const app = await createTestApp(running);
    const consent = await openConsent(browser, app, {
      scope: 'patient/Coverage.r patient/Coverage.s patient/ExplanationOfBenefit.r',
    });
    const scopes = scopesOf(await approveAndExchange(running, app, consent));
    assert.ok(scopes.includes('patient/Coverage.rs'), scopes.join(' '));
    assert.ok(!scopes.includes('patient/Coverage.r'));
    assert.ok(!scopes.includes('patient/Coverage.s'));
    assert.ok(scopes.includes('patient/ExplanationOfBenefit.r'));
    assert.ok(!scopes.includes('patient/ExplanationOfBenefit.rs'));
  });

  test('asked scopes are granted as asked, nothing more', async () => {
    const app = await createTestApp(running);
    const consent = await openConsent(browser, app, { scope: 'patient/Coverage.rs openid' });
    assert.deepEqual(scopesOf(await approveAndExchange(running, app, consent)).sort(), [
      'openid',
      'patient/Coverage.rs',
    ]);
  });
});

describe('consent: Cancel', () => {
  test('Cancel → 302 redirect_uri?error=access_denied&state=…', async () => {
    const app = await createTestApp(running);
    const consent = await openConsent(browser, app);
    const decision = await browser.postForm(consent.path, consentForm(consent, { allow: false }));
    assert.equal(decision.status, 302);
    assert.equal(
      decision.headers.get('location'),
      `${app.redirectUri}?error=access_denied&state=${consent.request.state}`,
    );
  });

  test('Cancel leaves an existing grant alone: the earlier refresh token still works', async () => {
    const app = await createTestApp(running);
    const first = await approveAndExchange(running, app, await openConsent(browser, app));
    const consent = await openConsent(browser, app);
    const cancel = await browser.postForm(consent.path, consentForm(consent, { allow: false }));
    assert.equal(new URL(cancel.headers.get('location')!).searchParams.get('error'), 'access_denied');
    const refreshed = await refresh(running, app, String(first.refresh_token));
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.ok((refreshed.body as Record<string, unknown>).access_token);
  });
});

describe('consent: the form is bound to this browser and used once', () => {
  let app: TestApp;
  before(async () => {
    app = await createTestApp(running);
  });

  test('a wrong or missing csrf → 403, no code', async () => {
    const consent = await openConsent(browser, app);
    const wrong = {
      ...consentForm(consent),
      csrf: consent.csrf.slice(0, -2) + (consent.csrf.endsWith('AA') ? 'BB' : 'AA'),
    };
    await assertRefused(await browser.postForm(consent.path, wrong), 403);
    const missing = consentForm(consent);
    delete missing.csrf;
    await assertRefused(await browser.postForm(consent.path, missing), 403);
    await assertRefused(await browser.postForm(consent.path, { ...consentForm(consent), csrf: '' }), 403);
  });

  test('a post from another browser session is refused, whoever is logged in there', async () => {
    const consent = await openConsent(browser, app);
    const form = consentForm(consent);
    const sameEnrollee = await loggedInBrowser(running, 0);
    await assertRefused(await sameEnrollee.postForm(consent.path, form));
    const otherEnrollee = await loggedInBrowser(running, 1);
    await assertRefused(await otherEnrollee.postForm(consent.path, form));
    const anonymous = new Browser(running.url);
    await assertRefused(await anonymous.postForm(consent.path, form));
    // The page itself is not shown to another browser either.
    const page = await otherEnrollee.get(consent.path);
    assert.ok(page.status >= 400 && page.status < 500);
    assert.ok(!(await page.text()).includes(consent.csrf));
  });

  test('the approval is single-use: the same form posted twice', async () => {
    const consent = await openConsent(browser, app);
    const first = await browser.postForm(consent.path, consentForm(consent));
    assert.equal(first.status, 302);
    assert.ok(new URL(first.headers.get('location')!).searchParams.get('code'));
    await assertRefused(await browser.postForm(consent.path, consentForm(consent)));
    await assertRefused(await browser.postForm(consent.path, consentForm(consent, { allow: false })));
  });

  test('Cancel also uses the approval up', async () => {
    const consent = await openConsent(browser, app);
    const cancel = await browser.postForm(consent.path, consentForm(consent, { allow: false }));
    assert.equal(cancel.status, 302);
    await assertRefused(await browser.postForm(consent.path, consentForm(consent)));
  });

  test('an approval older than 600 s is refused', async () => {
    const consent = await openConsent(browser, app);
    running.clock.advance(601_000);
    await assertRefused(await browser.postForm(consent.path, consentForm(consent)));
    const page = await browser.get(consent.path);
    assert.ok(page.status >= 400 && page.status < 500);
  });

  test('an approval just under 600 s old is still accepted', async () => {
    const consent = await openConsent(browser, app);
    running.clock.advance(590_000);
    const decision = await browser.postForm(consent.path, consentForm(consent));
    assert.equal(decision.status, 302);
    assert.ok(new URL(decision.headers.get('location')!).searchParams.get('code'));
  });

  test('an unknown approval id or a non-UUID → 4xx', async () => {
    const unknown = await browser.get(`/v2/o/authorize/${randomUUID()}/`);
    assert.ok(unknown.status >= 400 && unknown.status < 500, String(unknown.status));
    const notUuid = await browser.get('/v2/o/authorize/not-a-uuid/');
    assert.equal(notUuid.status, 404);
  });
});

describe('consent: malformed posts are 4xx', () => {
  let app: TestApp;
  let consent: OpenConsent;
  before(async () => {
    app = await createTestApp(running);
    consent = await openConsent(browser, app);
  });

  async function postRaw(body: string, contentType: string) {
    return browser.request(consent.path, { method: 'POST', body, headers: { 'content-type': contentType } });
  }

  for (const [label, body] of [
    ['numbers and arrays', JSON.stringify({ csrf: 123, allow: ['Connect'] })],
    ['an array', '[1,2]'],
    ['a bare string', '"Connect"'],
    ['broken JSON', '{"csrf":'],
  ]) {
    test(`a JSON body with ${label}`, async () => {
      await assertRefused(await postRaw(body!, 'application/json'));
    });
  }

  test('a JSON body is not a consent form, even with the right fields', async () => {
    const own = await openConsent(browser, app);
    const response = await browser.request(own.path, {
      method: 'POST',
      body: JSON.stringify({ csrf: own.csrf, allow: 'Connect' }),
      headers: { 'content-type': 'application/json' },
    });
    await assertRefused(response);
  });

  test('a repeated csrf or allow', async () => {
    await assertRefused(
      await browser.postForm(consent.path, { ...consentForm(consent), csrf: [consent.csrf, consent.csrf] }),
    );
    await assertRefused(
      await browser.postForm(consent.path, { ...consentForm(consent), allow: ['Connect', 'Connect'] }),
    );
  });

  test('a body over 64 KiB', async () => {
    const body = new URLSearchParams({ csrf: consent.csrf, allow: 'Connect', filler: 'x'.repeat(70 * 1024) });
    const response = await postRaw(body.toString(), 'application/x-www-form-urlencoded');
    assert.equal(response.status, 413);
  });

  test('after those, the genuine form still works', async () => {
    const decision = await browser.postForm(consent.path, consentForm(consent));
    assert.equal(decision.status, 302);
    assert.ok(new URL(decision.headers.get('location')!).searchParams.get('code'));
  });
});

describe('consent: page headers', () => {
  test('no-store, not frameable', async () => {
    const app = await createTestApp(running);
    const { response } = await openConsent(browser, app);
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  });
});

describe('language of the login and consent pages', () => {
  let app: TestApp;
  before(async () => {
    app = await createTestApp(running, { dataAccessType: 'THIRTEEN_MONTH' });
  });

  /** Walks a fresh browser from /authorize through the login page to the consent page. */
  async function walk(target: TestApp, changes: Record<string, string>, acceptLanguage?: string) {
    const walker = new Browser(running.url, acceptLanguage ? { 'accept-language': acceptLanguage } : {});
    const { query } = authorizeRequest(target, changes);
    const start = await walker.get(`/v2/o/authorize/?${query}`);
    assert.equal(start.status, 302);
    const loginLocation = start.headers.get('location')!;
    assert.equal(new URL(loginLocation, running.url).pathname, LOGIN_PATH);
    const loginPage = await walker.get(loginLocation);
    const loginHtml = await loginPage.text();
    const login = await walker.postForm(LOGIN_PATH, {
      csrf: hiddenField(loginHtml, 'csrf'),
      next: hiddenField(loginHtml, 'next'),
      lang: hiddenField(loginHtml, 'lang'),
      username: 'BBUser00002',
      password: 'PW00002!',
    });
    assert.equal(login.status, 302);
    const again = await walker.get(login.headers.get('location')!);
    assert.match(again.headers.get('location') ?? '', CONSENT_PATH);
    const consentPage = await walker.get(again.headers.get('location')!);
    const consentHtml = await consentPage.text();
    assert.equal(consentPage.status, 200, consentHtml);
    return {
      loginHtml,
      consentHtml,
      walker,
      consentPath: new URL(again.headers.get('location')!, running.url).pathname,
    };
  }

  function assertSpanish(pages: { loginHtml: string; consentHtml: string }, target = app) {
    const date = thirteenMonthsDate(running.clock.now(), 'es-US');
    assert.match(pages.loginHtml, /<html lang="es">/);
    assert.ok(pages.loginHtml.includes('Nombre de usuario'));
    assert.ok(pages.loginHtml.includes('Contraseña'));
    assert.match(pages.consentHtml, /<html lang="es">/);
    assert.ok(pages.consentHtml.includes('Conectar'));
    assert.ok(pages.consentHtml.includes('Cancelar'));
    assert.ok(pages.consentHtml.includes('Información personal'));
    const sentence = `${target.app.name} tendrá acceso a sus datos durante 13 meses, hasta el ${date}.`;
    assert.ok(pages.consentHtml.includes(sentence), `missing "${sentence}"`);
    assert.ok(!pages.consentHtml.includes('>Connect<'));
  }

  function assertEnglish(pages: { loginHtml: string; consentHtml: string }, target = app) {
    const date = thirteenMonthsDate(running.clock.now(), 'en-US');
    assert.match(pages.loginHtml, /<html lang="en">/);
    assert.ok(pages.loginHtml.includes('Username'));
    assert.match(pages.consentHtml, /<html lang="en">/);
    assert.ok(pages.consentHtml.includes('>Connect<'));
    assert.ok(pages.consentHtml.includes('>Cancel<'));
    assert.ok(pages.consentHtml.includes('Personal Information'));
    const sentence = `${target.app.name} will have access to your data for 13 months, until ${date}.`;
    assert.ok(pages.consentHtml.includes(sentence), `missing "${sentence}"`);
    assert.ok(!pages.consentHtml.includes('Conectar'));
  }

  test('lang=es → Spanish pages', async () => {
    assertSpanish(await walk(app, { lang: 'es' }));
  });

  test('lang=en with a Spanish browser → English pages', async () => {
    assertEnglish(await walk(app, { lang: 'en' }, 'es-MX,es;q=0.9'));
  });

  test('no lang, Accept-Language es-MX,es;q=0.9,en;q=0.8 → Spanish', async () => {
    assertSpanish(await walk(app, {}, 'es-MX,es;q=0.9,en;q=0.8'));
  });

  test('no lang, Accept-Language en-US,es;q=0.5 → English', async () => {
    assertEnglish(await walk(app, {}, 'en-US,es;q=0.5'));
  });

  test('lang=fr with a Spanish Accept-Language → Spanish', async () => {
    assertSpanish(await walk(app, { lang: 'fr' }, 'es-MX,es;q=0.9,en;q=0.8'));
  });

  test('no lang, no Accept-Language → English', async () => {
    assertEnglish(await walk(app, {}));
  });

  const qValues: [string, 'en' | 'es'][] = [
    ['en;q=0.5, es;q=0.9', 'es'],
    ['es;q=0.2, en;q=0.8', 'en'],
    ['fr-FR, es;q=0.7, en;q=0.6', 'es'],
    ['fr-FR, de', 'en'],
    ['es;q=0, en;q=0.1', 'en'],
    ['ES-mx', 'es'],
  ];
  for (const [header, expected] of qValues) {
    test(`Accept-Language "${header}" → ${expected} login page`, async () => {
      const page = await fetch(`${running.url}${LOGIN_PATH}`, { headers: { 'accept-language': header } });
      const html = await page.text();
      assert.match(html, new RegExp(`<html lang="${expected}">`));
      assert.ok(html.includes(expected === 'es' ? 'Nombre de usuario' : 'Username'));
    });
  }

  test('a 10 hours app shows the 10-hours sentence in both languages', async () => {
    const oneTime = await createTestApp(running, { dataAccessType: 'ONE_TIME' });
    const en = await walk(oneTime, { lang: 'en' });
    assert.ok(en.consentHtml.includes(`${oneTime.app.name} will have access to your data for 10 hours.`));
    assert.ok(!en.consentHtml.includes('13 months'));
    const es = await walk(oneTime, { lang: 'es' });
    assert.ok(es.consentHtml.includes(`${oneTime.app.name} tendrá acceso a sus datos durante 10 horas.`));
  });

  test('a Research app shows no duration sentence', async () => {
    const research = await createTestApp(running, { dataAccessType: 'RESEARCH_STUDY' });
    for (const lang of ['en', 'es']) {
      const { consentHtml } = await walk(research, { lang });
      assert.ok(!consentHtml.includes('will have access to your data'));
      assert.ok(!consentHtml.includes('tendrá acceso a sus datos'));
      assert.ok(!consentHtml.includes('class="duration"'));
    }
  });

  test('with lang=es, an error after the consent form is shown in Spanish too', async () => {
    const { walker, consentPath } = await walk(app, { lang: 'es' });
    const response = await walker.postForm(consentPath, { csrf: 'forged', allow: 'Connect' });
    const html = await response.text();
    assert.equal(response.status, 403);
    assert.match(html, /<html lang="es">/);
    assert.ok(html.includes('No se pudo verificar el formulario'), html);
  });
});

describe('consent cannot be turned against the enrollee', () => {
  /** A Bearer read with `token`: the status only. */
  async function readPatient(token: string, patient: string): Promise<number> {
    const response = await fetch(`${running.url}/v2/fhir/Coverage?beneficiary=${patient}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return response.status;
  }

  test('scopes that leave nothing to grant → invalid_scope at the redirect URI with state; no page', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: false });
    for (const scope of ['profile', 'patient/Patient.rs profile', 'profile offline_access fhirUser']) {
      const request = authorizeRequest(app, { scope });
      const answer = await browser.get(`/v2/o/authorize/?${request.query}`);
      assert.equal(answer.status, 302, scope);
      const target = new URL(answer.headers.get('location')!);
      assert.equal(`${target.origin}${target.pathname}`, app.redirectUri, scope);
      assert.equal(target.searchParams.get('error'), 'invalid_scope', scope);
      assert.equal(target.searchParams.get('state'), request.state, scope);
      assert.match(target.searchParams.get('error_description') ?? '', /nothing/);
      assert.equal(target.searchParams.get('code'), null);
    }
  });

  test('a new Connect leaves the live tokens working until its code is redeemed', async () => {
    const app = await createTestApp(running);
    const first = await approveAndExchange(running, app, await openConsent(browser, app));
    const patient = String(first.patient);
    // A second consent (say, a forged authorize link the enrollee was led to approve): Connect pressed…
    const second = await openConsent(browser, app);
    const decision = await browser.postForm(second.path, consentForm(second));
    const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
    assert.ok(code);
    // …the app's current access is untouched.
    assert.equal(await readPatient(String(first.access_token), patient), 200);
    const refreshed = await refresh(running, app, String(first.refresh_token));
    assert.equal(refreshed.status, 200, refreshed.text);
    const current = refreshed.body as Record<string, unknown>;
    // Redeeming the new code makes its family the pair's only live one.
    const exchanged = await exchangeCode(running, app, code, second.request.pkce.verifier);
    assert.equal(exchanged.status, 200, exchanged.text);
    assert.equal(await readPatient(String(current.access_token), patient), 401);
    assert.equal((await refresh(running, app, String(current.refresh_token))).status, 400);
    const latest = exchanged.body as Record<string, unknown>;
    assert.equal(await readPatient(String(latest.access_token), patient), 200);
  });

  test('Connect that grants nothing (personal information unchecked) keeps the existing grant', async () => {
    const app = await createTestApp(running, { requireDemographicScopes: true });
    const first = await approveAndExchange(running, app, await openConsent(browser, app));
    const consent = await openConsent(browser, app, { scope: 'patient/Patient.rs' });
    const decision = await browser.postForm(consent.path, consentForm(consent, { share: false }));
    assert.equal(new URL(decision.headers.get('location')!).searchParams.get('error'), 'access_denied');
    assert.equal(await readPatient(String(first.access_token), String(first.patient)), 200);
    const refreshed = await refresh(running, app, String(first.refresh_token));
    assert.equal(refreshed.status, 200, refreshed.text);
  });

  test('the page names exactly what Connect grants', async () => {
    const demographic = await createTestApp(running, { requireDemographicScopes: true });
    const everything = await openConsent(browser, demographic);
    for (const text of ['Doctor visits', 'Coverage: your plan', 'Your enrollee ID', 'Personal Information'])
      assert.ok(everything.html.includes(text), text);

    const coverageOnly = await openConsent(browser, demographic, { scope: 'patient/Coverage.rs' });
    assert.ok(coverageOnly.html.includes('Coverage: your plan'));
    for (const text of ['Doctor visits', 'Prescription', 'Your enrollee ID', 'share_demographic_scopes'])
      assert.ok(!coverageOnly.html.includes(text), text);

    const claimsOnly = await openConsent(browser, demographic, {
      scope: 'patient/ExplanationOfBenefit.rs',
      lang: 'es',
    });
    assert.ok(claimsOnly.html.includes('Visitas al médico'));
    assert.ok(!claimsOnly.html.includes('Cobertura:'));
    assert.ok(!claimsOnly.html.includes('share_demographic_scopes'));

    // Only personal information asked for: the page offers it alone, as what Connect would share.
    const personalOnly = await openConsent(browser, demographic, { scope: 'patient/Patient.rs' });
    assert.ok(personalOnly.html.includes('share_demographic_scopes'));
    assert.ok(personalOnly.html.includes(`will have access to your:`));
    assert.ok(!personalOnly.html.includes('Doctor visits'));
  });
});
