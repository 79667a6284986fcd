import assert from 'node:assert/strict';
import { authorizeThroughPages, postForm, type AuthorizeOptions, type AuthorizeResult } from './flow.js';
import type { createTestApp, RunningService } from './service.js';

/** HTTP calls and expected values shared by the token, refresh, revoke and userinfo suites. */

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export interface TokenBody {
  access_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
  refresh_token?: string;
  patient: string;
  access_grant_expiration?: string;
  id_token?: string;
}

export interface HttpResult {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

/** Sandbox enrollee number n: the published credentials and patient id of the synthetic data. */
export function enrollee(n: number) {
  const digits = String(n).padStart(5, '0');
  return {
    username: `BBUser${digits}`,
    password: `PW${digits}!`,
    patientId: `-${19990000000001 + n}`,
  };
}

/** The scopes granted when the authorize request names none and the enrollee shares personal information. */
export const DEFAULT_SCOPES = [
  'launch/patient',
  'openid',
  'patient/Coverage.rs',
  'patient/ExplanationOfBenefit.rs',
  'patient/Patient.rs',
  'profile',
];

export function scopeSet(scope: string): string[] {
  return scope.split(' ').filter(Boolean).sort();
}

export const TEXT = {
  notAuthenticated: 'Authentication credentials were not provided.',
  /** A token given but unknown or revoked, and one past its lifetime (RFC 6750 §3.1 invalid_token). */
  invalidToken: 'The access token is invalid.',
  expiredToken: 'The access token has expired.',
  noPermission: 'You do not have permission to perform this action.',
  grantTimedOut:
    'User access has timed out. To refresh data, the end user must re-authenticate and consent to share their data.',
  grantMissing:
    'User access cannot be found. To refresh data, the end user must re-authenticate and consent to share their data.',
  noRefreshForApp:
    'Your application is not allowed to refresh tokens. To refresh data, end user must re-authenticate and ' +
    'consent to share their data. If your application needs to refresh tokens, its access duration must be ' +
    '13 months or Research.',
  appInactive: (name: string) =>
    `This application, ${name}, is temporarily inactive. If you are the app maintainer, please contact the ` +
    'service team. If you are an enrollee and need assistance, please contact the support team for the ' +
    'application you are trying to access.',
};

/** `YYYY-MM-DD HH:MM:SSZ` in UTC (docs/decisions.md#grant-expiration-format). */
export function formatUtc(instant: number): string {
  const d = new Date(instant);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}Z`
  );
}

export const GRANT_EXPIRATION_SHAPE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/;

/** Calendar months later in UTC; a day that does not exist in the target month becomes its last day. */
export function monthsLater(instant: number, months: number): number {
  const d = new Date(instant);
  const year = d.getUTCFullYear() + Math.floor((d.getUTCMonth() + months) / 12);
  const month = (d.getUTCMonth() + months) % 12;
  const daysInTarget = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), daysInTarget);
  return Date.UTC(
    year,
    month,
    day,
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** Asserts `value` is the formatted form of an instant in [from, to] (the service read its clock in between). */
export function assertFormattedBetween(value: unknown, from: number, to: number, label = 'value'): void {
  assert.equal(typeof value, 'string', `${label} is text`);
  assert.match(value as string, GRANT_EXPIRATION_SHAPE, `${label} has the documented shape`);
  const low = formatUtc(from);
  const high = formatUtc(to);
  assert.ok(
    (value as string) >= low && (value as string) <= high,
    `${label} ${String(value)} not within [${low}, ${high}]`,
  );
}

export function basicHeader(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function basicOf(app: TestApp) {
  return { id: app.clientId, secret: app.clientSecret };
}

async function asResult(response: Response): Promise<HttpResult> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* plain text */
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** Login + consent through the real pages as sandbox enrollee `n` (default 0). */
export function consent(
  running: RunningService,
  app: TestApp,
  options: Partial<AuthorizeOptions> & { enrollee?: number } = {},
): Promise<AuthorizeResult> {
  const who = enrollee(options.enrollee ?? 0);
  return authorizeThroughPages(running.url, {
    clientId: app.clientId,
    redirectUri: app.redirectUri,
    username: who.username,
    password: who.password,
    ...options,
  });
}

/** The code exchange with client credentials in the body. */
export function exchange(
  base: string,
  app: TestApp,
  flow: { code: string | null; pkce: { verifier: string } },
  extra: Record<string, string> = {},
): Promise<HttpResult> {
  return postForm(`${base}/v2/o/token/`, {
    grant_type: 'authorization_code',
    code: flow.code!,
    redirect_uri: app.redirectUri,
    code_verifier: flow.pkce.verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    ...extra,
  });
}

/** Consent as enrollee `n` and exchange the code; asserts success and returns the token response. */
export async function issueTokens(
  running: RunningService,
  app: TestApp,
  options: Partial<AuthorizeOptions> & { enrollee?: number } = {},
): Promise<TokenBody> {
  const flow = await consent(running, app, options);
  assert.ok(flow.code, `consent gave no code: ${flow.location.href}`);
  const response = await exchange(running.url, app, flow);
  assert.equal(response.status, 200, response.text);
  return response.body as TokenBody;
}

/** A refresh with HTTP Basic client authentication, as the Node SDK sends it. */
export function refresh(
  base: string,
  app: TestApp,
  refreshToken: string | undefined,
  extra: Record<string, string> = {},
): Promise<HttpResult> {
  const form: Record<string, string> = { grant_type: 'refresh_token', ...extra };
  if (refreshToken !== undefined) form.refresh_token = refreshToken;
  return postForm(`${base}/v2/o/token/`, form, basicOf(app));
}

export async function userinfo(
  base: string,
  accessToken: string | undefined,
  init: { method?: string; query?: string } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (accessToken !== undefined) headers.authorization = `Bearer ${accessToken}`;
  const response = await fetch(`${base}/v2/connect/userinfo${init.query ?? ''}`, {
    method: init.method ?? 'GET',
    headers,
  });
  return asResult(response);
}

/** POST to /v2/o/revoke/ (or another revoke path) with HTTP Basic. */
export function revoke(
  base: string,
  app: TestApp,
  token: string | undefined,
  path = '/v2/o/revoke/',
  extra: Record<string, string> = {},
): Promise<HttpResult> {
  const form: Record<string, string> = { ...extra };
  if (token !== undefined) form.token = token;
  return postForm(`${base}${path}`, form, basicOf(app));
}

/** The sandbox expire operation: HTTP Basic, no body (Content-Length: 0). */
export async function expireUser(
  base: string,
  patientId: string,
  credentials: { id: string; secret: string } | undefined,
): Promise<HttpResult> {
  const headers: Record<string, string> = { 'content-length': '0' };
  if (credentials) headers.authorization = basicHeader(credentials.id, credentials.secret);
  const response = await fetch(`${base}/v2/o/expire_authenticated_user/${patientId}/`, {
    method: 'POST',
    headers,
  });
  return asResult(response);
}

/** Asserts a response is a JSON body deep-equal to `expected` with `status`. */
export function assertJson(result: HttpResult, status: number, expected: unknown): void {
  assert.equal(result.status, status, result.text);
  assert.match(result.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(result.body, expected);
}

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

/** Runs `check` while `app` is disabled, then enables it again (also when `check` fails). */
export async function whileInactive(
  running: RunningService,
  app: TestApp,
  check: () => Promise<void>,
): Promise<void> {
  const { apps } = running.service.deps;
  await apps.setAppActive(app.clientId, false, running.clock.now());
  try {
    await check();
  } finally {
    await apps.setAppActive(app.clientId, true, running.clock.now());
  }
}

/**
 * The token-side answer for a disabled app: a client permission problem is 401 invalid_client
 * (docs/decisions.md#client-authentication).
 */
export function inactiveClientBody(app: TestApp) {
  return { status_code: 401, error: 'invalid_client', error_description: TEXT.appInactive(app.app.name) };
}
