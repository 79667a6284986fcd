import * as oidc from 'openid-client';
import { IDP_CALLBACK_PATH, type IdpSettings } from './idp-settings.js';

/** Longest wait for one call to the IdP (discovery, token, JWKS, userinfo) before it counts as unreachable. */
const CALL_TIMEOUT_SECONDS = 10;

/** How long discovered metadata is used before it is fetched again (a failed fetch keeps the old one). */
const DISCOVERY_TTL_MS = 24 * 3_600_000;

/**
 * How long the answer of a reachability probe stands: a burst of sign-ins makes at most one probe, and an
 * IdP that comes back is noticed within this time (shorter than the 503 page's `Retry-After`).
 */
export const PROBE_TTL_MS = 15_000;

/** A probe waits less than a real call: the member is waiting for the redirect. */
const PROBE_TIMEOUT_MS = 5_000;

/** The IdP's metadata could not be fetched (network, timeout, an error answer, an issuer mismatch). */
export class IdpUnavailableError extends Error {
  constructor(options: { cause: unknown }) {
    super('identity provider discovery failed', options);
    this.name = 'IdpUnavailableError';
  }
}

/** The configured identity provider and its discovered configuration. */
export interface IdentityProvider {
  readonly settings: IdpSettings;
  /** `PUBLIC_URL` + the callback path: the redirect URI registered at the IdP. */
  readonly redirectUri: string;
  /** The IdP's configuration for openid-client, discovered once and kept in this process. */
  configuration(): Promise<oidc.Configuration>;
  /** Whether the IdP answers its discovery document now (a probe at most every `PROBE_TTL_MS`). */
  reachable(): Promise<boolean>;
}

/**
 * RFC 8414 §2: without `token_endpoint_auth_methods_supported` the IdP takes `client_secret_basic`; the
 * secret goes in the body only for an IdP that lists `client_secret_post` and not Basic.
 */
function postsSecret(metadata: oidc.ServerMetadata): boolean {
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
}

/**
 * OpenID Connect Discovery 1.0 §4, by openid-client (the metadata's `issuer` must equal ours, §4.3). The
 * ID token's signature is checked against the IdP's JWKS (`enableNonRepudiationChecks`): openid-client
 * otherwise trusts an ID token from the token endpoint on TLS alone (OIDC Core §3.1.3.7 step 6 allows
 * that), and we check it whatever the transport. Plain http is allowed only for a loopback issuer (config).
 */
async function discover(settings: IdpSettings): Promise<oidc.Configuration> {
  const execute = new URL(settings.issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  let config = await oidc.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    oidc.ClientSecretBasic(settings.clientSecret),
    { execute, timeout: CALL_TIMEOUT_SECONDS },
  );
  if (postsSecret(config.serverMetadata())) {
    config = new oidc.Configuration(
      config.serverMetadata(),
      settings.clientId,
      undefined,
      oidc.ClientSecretPost(settings.clientSecret),
    );
    for (const extension of execute) extension(config);
  }
  config.timeout = CALL_TIMEOUT_SECONDS;
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/**
 * The discovery document answered with 2xx (OpenID Connect Discovery 1.0 §4.1), the request start-up
 * discovery makes. Only reachability is asked: the configuration in use is not replaced, so the JWKS
 * openid-client cached in it stays.
 */
async function probe(settings: IdpSettings): Promise<boolean> {
  const url = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The identity provider of `settings`. Its discovered configuration (and the JWKS openid-client caches in
 * it) and the last probe's answer are process memory, not flow state: every instance discovers and probes
 * for itself; concurrent callers share one discovery, and one probe.
 */
export function createIdentityProvider(
  settings: IdpSettings,
  publicUrl: string,
  now: () => number = () => Date.now(),
): IdentityProvider {
  let current: { config: oidc.Configuration; fetchedAt: number } | undefined;
  let inFlight: Promise<oidc.Configuration> | undefined;
  let probed: { ok: boolean; at: number } | undefined;
  let probing: Promise<boolean> | undefined;
  const refresh = () =>
    (inFlight ??= discover(settings)
      .then((config) => {
        current = { config, fetchedAt: now() };
        // A discovery that just succeeded answers the next probe too.
        probed = { ok: true, at: current.fetchedAt };
        return config;
      })
      .finally(() => {
        inFlight = undefined;
      }));
  return {
    settings,
    redirectUri: `${publicUrl}${IDP_CALLBACK_PATH}`,
    async configuration() {
      if (current && now() - current.fetchedAt < DISCOVERY_TTL_MS) return current.config;
      try {
        return await refresh();
      } catch (cause) {
        if (current) return current.config;
        throw new IdpUnavailableError({ cause });
      }
    },
    reachable() {
      if (probed && now() - probed.at < PROBE_TTL_MS) return Promise.resolve(probed.ok);
      return (probing ??= probe(settings)
        .then((ok) => {
          probed = { ok, at: now() };
          return ok;
        })
        .finally(() => {
          probing = undefined;
        }));
    },
  };
}
