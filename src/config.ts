import type { AmaLicensePolicy } from './prices/ama-license.js';
import type { LogFormat } from './shared/logger.js';
import type { IdpSettings, MemberLink } from './auth/federation/idp-settings.js';
/**
 * The only reader of the environment. Every setting is parsed, validated and defaulted here, then frozen;
 * a bad value stops the process with a message naming the variable.
 */

export type Mode = 'sandbox' | 'production';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Public origin the service is reached at (issuer, absolute links). No trailing slash. */
  readonly publicUrl: string;
  /**
   * `PUBLIC_URL` is https: responses carry `Strict-Transport-Security` and the browser cookies are Secure
   * and `__Host-` prefixed. Over http (a local sandbox) neither, so nothing changes there.
   */
  readonly secureTransport: boolean;
  /** `max-age` of `Strict-Transport-Security` under an https `PUBLIC_URL`; 0 sends no header. */
  readonly hstsMaxAgeSeconds: number;
  /** `sqlite:<path>` or `postgres://…` */
  readonly databaseUrl: string;
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key, so deployments (and test runs) sharing one Redis stay apart. */
  readonly redisKeyPrefix: string;
  readonly mode: Mode;
  readonly accessTokenTtlSeconds: number;
  readonly sandboxEnrollees: number;
  /** The shape of the sandbox's synthetic claims: BB2's (CCW RIF through `ingest rif`) or CARIN NDJSON's. */
  readonly sandboxClaims: 'rif' | 'carin';
  readonly logLevel: string;
  /** Stdout log lines: `auto` (readable at a terminal, JSON lines otherwise), `json` or `pretty`. */
  readonly logFormat: LogFormat;
  readonly trustProxy: boolean;
  /** Failed logins for one username inside `loginLockoutSeconds` before that username is locked. */
  readonly loginMaxFailures: number;
  readonly loginLockoutSeconds: number;
  /**
   * Sign-in attempts (password logins, and sign-ins started at the identity provider) one client address
   * may make per minute and per hour, counted apart for each; past either, 429 with `Retry-After`.
   */
  readonly signInPerMinute: number;
  readonly signInPerHour: number;
  /** Plan API: limits of keys created without their own (`keys create` defaults). */
  readonly apiRatePerSecond: number;
  readonly apiRatePerMinute: number;
  /**
   * Sandbox only: a well-known plan-API key that always works (the public test key printed in the CMS
   * document by default), so a fresh start can be called without creating a key. Empty disables it.
   */
  readonly sandboxApiKey: string;
  /** Sandbox only: load the generated sample market when no plan data is loaded. */
  readonly sampleMarket: boolean;
  /** Plan API: how far `/providers/search` looks from the caller's ZIP, in miles. */
  readonly providerRadiusMiles: number;
  /**
   * Plan API bulk data: a public base URL the documents are uploaded to (`openenroll export bulk`); when
   * set, `/data/*` answers 302 to `<url>/<year>/<name>.json`, as the deployed service redirects to S3.
   */
  readonly bulkDataUrl: string | undefined;
  /**
   * Price lookup: the `amaLicense` values accepted. `any`: the header is required, any value is
   * accepted; `none`: not required; else the listed values only.
   */
  readonly pplAmaLicense: AmaLicensePolicy;
  /** PostgreSQL: connections in the pool of each instance. */
  readonly dbPoolSize: number;
  /**
   * PostgreSQL: `async` — refresh rotations and code exchanges commit without waiting for the WAL flush,
   * on connections of their own (docs/decisions.md#token-commits); `flush` — they wait like every write.
   */
  readonly dbTokenCommit: 'async' | 'flush';
  /**
   * PostgreSQL: `on` — reads by id and refresh rotations made at the same time share one statement
   * (docs/decisions.md#batched-statements); `off` — one statement per request.
   */
  readonly dbBatch: 'on' | 'off';
  /**
   * PostgreSQL: megabytes of FHIR resource bodies each instance keeps by row version, so that a read or a
   * page whose rows have not changed does not fetch their bodies again (docs/decisions.md#fhir-body-cache);
   * 0 turns it off.
   */
  readonly fhirBodyCacheMb: number;
  /** PostgreSQL: how long a request waits for a connection before it is answered 503. */
  readonly dbConnectTimeoutMs: number;
  /** PostgreSQL: how long one statement may wait for its answer (0: no limit) before it is answered 503. */
  readonly dbQueryTimeoutMs: number;
  /** Redis: how long one command may take before counting falls back to this process or the database. */
  readonly redisCommandTimeoutMs: number;
  /** Shutdown: how long readiness fails (so a load balancer stops sending) before the listener closes. */
  readonly shutdownDelaySeconds: number;
  /** Shutdown: how long requests in flight may take to finish before the process exits anyway. */
  readonly shutdownGraceSeconds: number;
  /** `/metrics` on a listener of its own at this port (on `host`); unset: none. */
  readonly metricsPort: number | undefined;
  /** `/metrics` on the service's port for `Authorization: Bearer <token>`; unset: not served there. */
  readonly metricsToken: string | undefined;
  /** The health plan's OpenID Connect identity provider enrollees sign in with (`IDP_*`); unset: none. */
  readonly idp: IdpSettings | undefined;
  /** Developer portal mail (`smtp://` or `smtps://user:pass@host:port`); unset: sandbox logs the links. */
  readonly smtpUrl: string | undefined;
  /** The portal's mail sender (`From`). */
  readonly smtpFrom: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return 'sqlite:./data/openenroll.db';
  if (/^postgres(ql)?:\/\//.test(raw) || raw.startsWith('sqlite:')) return raw;
  throw new ConfigError('DATABASE_URL', `expected sqlite:<path> or postgres://…, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL', `expected redis://…, got "${raw}"`);
  return raw;
}

function sandboxApiKey(env: Env): string {
  const raw = env.SANDBOX_API_KEY;
  if (raw === undefined) return 'd687412e7b53146b2631dc01974ad0a4';
  if (raw !== '' && !/^[\x21-\x7e]{16,200}$/.test(raw)) {
    throw new ConfigError(
      'SANDBOX_API_KEY',
      'expected 16 to 200 printable characters without spaces, or empty',
    );
  }
  return raw;
}

function optionalUrl(env: Env, name: string): string | undefined {
  return env[name] ? url(env, name, '') : undefined;
}

function amaLicense(env: Env): AmaLicensePolicy {
  const raw = (env.PPL_AMA_LICENSE ?? '').trim();
  if (raw === '' || raw === 'any') return { kind: 'any' };
  if (raw === 'none') return { kind: 'none' };
  const values = raw.split(',').map((v) => v.trim());
  if (values.some((v) => !/^[\x21-\x7e]{1,200}$/.test(v))) {
    throw new ConfigError('PPL_AMA_LICENSE', 'expected any, none, or comma-separated printable values');
  }
  return { kind: 'listed', values };
}

function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,200}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN', 'expected 16 to 200 printable characters without spaces');
  }
  return raw;
}

const IDP_SETTINGS = [
  'IDP_CLIENT_ID',
  'IDP_CLIENT_SECRET',
  'IDP_SCOPES',
  'IDP_LABEL',
  'IDP_LABEL_ES',
  'IDP_PATIENT_ID_CLAIM',
  'IDP_MEMBER_ID_CLAIM',
  'IDP_MEMBER_ID_SYSTEM',
] as const;

/**
 * OpenID Connect Discovery 1.0 §3: the issuer is an https URL without query or fragment, kept exactly as
 * written (a trailing slash is part of some issuers). Plain http only on a loopback host, for a local IdP.
 */
function issuerUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('IDP_ISSUER', `not a URL: "${raw}"`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new ConfigError('IDP_ISSUER', `must be an https URL (http only on a loopback host), got "${raw}"`);
  }
  if (parsed.search || parsed.hash || raw.includes('?') || raw.includes('#')) {
    throw new ConfigError('IDP_ISSUER', `must have no query or fragment, got "${raw}"`);
  }
  return raw;
}

/** A required text setting of printable characters without spaces (ids, secrets, claim names, systems). */
function token(env: Env, name: string, why = ''): string {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new ConfigError(name, `must be set${why && ` ${why}`}`);
  if (!/^[\x21-\x7e]{1,500}$/.test(raw)) {
    throw new ConfigError(name, 'expected 1 to 500 printable characters without spaces');
  }
  return raw;
}

/** The button label: a short line of text, no control characters. */
function label(env: Env, name: string, fallback: string): string {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  if (raw.length > 80 || [...raw].some((c) => c < ' ' || c === '\x7f')) {
    throw new ConfigError(name, 'expected at most 80 characters on one line');
  }
  return raw;
}

function idpScopes(env: Env): string[] {
  const scopes = (env.IDP_SCOPES || 'openid profile').split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid')) {
    throw new ConfigError('IDP_SCOPES', `must include openid, got "${env.IDP_SCOPES}"`);
  }
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
    throw new ConfigError('IDP_SCOPES', 'scope names are printable characters without quotes or backslashes');
  }
  return [...new Set(scopes)];
}

/** Exactly one way of tying a signed-in member to the claims data. */
function memberLink(env: Env): MemberLink {
  const patientClaim = env.IDP_PATIENT_ID_CLAIM;
  const memberClaim = env.IDP_MEMBER_ID_CLAIM;
  if (patientClaim && memberClaim) {
    throw new ConfigError(
      'IDP_MEMBER_ID_CLAIM',
      'set either IDP_PATIENT_ID_CLAIM or IDP_MEMBER_ID_CLAIM (with IDP_MEMBER_ID_SYSTEM), not both',
    );
  }
  if (patientClaim) {
    if (env.IDP_MEMBER_ID_SYSTEM) {
      throw new ConfigError(
        'IDP_MEMBER_ID_SYSTEM',
        'only goes with IDP_MEMBER_ID_CLAIM, not IDP_PATIENT_ID_CLAIM',
      );
    }
    return { kind: 'patient-id', claim: token(env, 'IDP_PATIENT_ID_CLAIM') };
  }
  if (memberClaim) {
    return {
      kind: 'member-id',
      claim: token(env, 'IDP_MEMBER_ID_CLAIM'),
      system: token(env, 'IDP_MEMBER_ID_SYSTEM', 'with IDP_MEMBER_ID_CLAIM (the Patient.identifier system)'),
    };
  }
  throw new ConfigError(
    'IDP_PATIENT_ID_CLAIM',
    'with IDP_ISSUER set, IDP_PATIENT_ID_CLAIM or IDP_MEMBER_ID_CLAIM (with IDP_MEMBER_ID_SYSTEM) must say how members are linked to claims data',
  );
}

/** The plan's identity provider: complete with `IDP_ISSUER`, and no `IDP_*` setting without it. */
function identityProvider(env: Env): IdpSettings | undefined {
  const issuer = env.IDP_ISSUER;
  if (issuer === undefined || issuer === '') {
    const stray = IDP_SETTINGS.find((name) => env[name]);
    if (stray) throw new ConfigError('IDP_ISSUER', `must be set when ${stray} is`);
    return undefined;
  }
  const en = label(env, 'IDP_LABEL', 'your health plan');
  return {
    issuer: issuerUrl(issuer),
    clientId: token(env, 'IDP_CLIENT_ID', 'with IDP_ISSUER (the client id registered at the IdP)'),
    clientSecret: token(
      env,
      'IDP_CLIENT_SECRET',
      'with IDP_ISSUER (the client secret registered at the IdP)',
    ),
    scopes: idpScopes(env),
    // A plan's name is usually the same in Spanish; the generic default is not.
    label: { en, es: label(env, 'IDP_LABEL_ES', env.IDP_LABEL?.trim() ? en : 'su plan de salud') },
    memberLink: memberLink(env),
  };
}

function smtpUrl(env: Env): string | undefined {
  const raw = env.SMTP_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^smtps?:\/\/[^\s]+$/.test(raw)) throw new ConfigError('SMTP_URL', 'expected smtp://… or smtps://…');
  return raw;
}

function smtpFrom(env: Env, publicUrl: string): string {
  const raw = (env.SMTP_FROM ?? '').trim();
  if (raw === '') return `openenroll <no-reply@${new URL(publicUrl).hostname}>`;
  if (raw.length > 200 || [...raw].some((c) => c < ' ' || c === '\x7f')) {
    throw new ConfigError('SMTP_FROM', 'expected one line of at most 200 characters');
  }
  return raw;
}

/** Reads the settings from an environment (normally `process.env`). */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8000, 0, 65535);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`);
  return Object.freeze({
    port,
    host: env.HOST || 'localhost',
    publicUrl,
    secureTransport: publicUrl.startsWith('https:'),
    hstsMaxAgeSeconds: integer(env, 'HSTS_MAX_AGE_SECONDS', 31_536_000, 0, 63_072_000),
    databaseUrl: databaseUrl(env),
    redisUrl: redisUrl(env),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'openenroll:',
    mode: oneOf(env, 'OPENENROLL_MODE', ['sandbox', 'production'] as const, 'sandbox'),
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 36000, 60, 86400),
    sandboxEnrollees: integer(env, 'SANDBOX_ENROLLEES', 100, 0, 100000),
    sandboxClaims: oneOf(env, 'SANDBOX_CLAIMS', ['rif', 'carin'] as const, 'rif'),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    loginMaxFailures: integer(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginLockoutSeconds: integer(env, 'LOGIN_LOCKOUT_SECONDS', 900, 1, 86400),
    signInPerMinute: integer(env, 'SIGN_IN_PER_MINUTE', 20, 1, 1_000_000),
    signInPerHour: integer(env, 'SIGN_IN_PER_HOUR', 200, 1, 100_000_000),
    apiRatePerSecond: integer(env, 'API_RATE_PER_SECOND', 200, 1, 1_000_000),
    apiRatePerMinute: integer(env, 'API_RATE_PER_MINUTE', 1000, 1, 100_000_000),
    sandboxApiKey: sandboxApiKey(env),
    sampleMarket: bool(env, 'SAMPLE_MARKET', true),
    providerRadiusMiles: integer(env, 'PROVIDER_RADIUS_MILES', 25, 1, 500),
    bulkDataUrl: optionalUrl(env, 'BULK_DATA_URL'),
    pplAmaLicense: amaLicense(env),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbTokenCommit: oneOf(env, 'DB_TOKEN_COMMIT', ['async', 'flush'], 'async'),
    dbBatch: oneOf(env, 'DB_BATCH', ['on', 'off'], 'on'),
    fhirBodyCacheMb: integer(env, 'FHIR_BODY_CACHE_MB', 64, 0, 4096),
    dbConnectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 600_000),
    dbQueryTimeoutMs: integer(env, 'DB_QUERY_TIMEOUT_MS', 10_000, 0, 3_600_000),
    redisCommandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', 500, 10, 60_000),
    shutdownDelaySeconds: integer(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 300),
    shutdownGraceSeconds: integer(env, 'SHUTDOWN_GRACE_SECONDS', 10, 1, 3600),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    metricsToken: metricsToken(env),
    idp: identityProvider(env),
    smtpUrl: smtpUrl(env),
    smtpFrom: smtpFrom(env, publicUrl),
  });
}
