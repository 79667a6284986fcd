import { constantTimeEqual, sha256 } from '../../shared/crypto.js';
import { HttpError } from '../../shared/errors.js';
import type { ClientApp, AppStore } from '../store/apps.js';
import { oauthError, serviceError, TEXT } from './errors.js';

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Sent with HTTP Basic: a refusal then challenges the same scheme. */
  basic?: boolean;
}

/**
 * RFC 6749 §5.2: a client that authenticated with the Authorization header is refused with 401 and a
 * `WWW-Authenticate` challenge of the scheme it used.
 */
function basicChallenge(error: HttpError): HttpError {
  return new HttpError(error.status, error.body, {
    ...error.headers,
    'www-authenticate': 'Basic realm="openenroll"',
  });
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * Client credentials from HTTP Basic (RFC 6749 §2.3.1: id and secret form-urlencoded, then base64) or the
 * body. Both may be present only when they agree (the Node SDK sends Basic plus the body `client_id`).
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: Record<string, string | undefined>,
): ClientCredentials {
  const bodyId = body.client_id || undefined;
  const bodySecret = body.client_secret || undefined;
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const malformed = () => basicChallenge(oauthError(401, 'invalid_client', 'Malformed Basic credentials.'));
    if (colon < 0) throw malformed();
    let id: string;
    let secret: string;
    try {
      id = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw malformed();
    }
    if (id.includes('\u0000') || secret.includes('\u0000')) throw malformed();
    if ((bodyId && bodyId !== id) || (bodySecret && bodySecret !== secret)) {
      throw oauthError(
        400,
        'invalid_request',
        'Client credentials in the body do not match the Authorization header.',
      );
    }
    return { clientId: id, clientSecret: secret, basic: true };
  }
  return { clientId: bodyId, clientSecret: bodySecret };
}

/** True when `secret` hashes to the stored hash (compared in constant time). */
export function secretMatches(app: ClientApp, secret: string | undefined): boolean {
  return secret !== undefined && constantTimeEqual(sha256(secret), app.clientSecretHash);
}

/**
 * Identifies and authenticates the client of a token-side request, in Blue Button's order: identify the
 * app, refuse an inactive one, then check the secret. Every failure is 401 `invalid_client`, as Blue
 * Button's documentation has it for any problem with client credentials or permissions (its server answers
 * 400 for an unknown body client_id and 403 for an inactive app): docs/decisions.md#client-authentication.
 */
export async function authenticateClient(
  apps: AppStore,
  credentials: ClientCredentials,
  onFailure: (clientId: string | undefined, reason: string) => void,
): Promise<ClientApp> {
  try {
    return await identify(apps, credentials, onFailure);
  } catch (error) {
    if (credentials.basic && error instanceof HttpError && error.status === 401) throw basicChallenge(error);
    throw error;
  }
}

async function identify(
  apps: AppStore,
  credentials: ClientCredentials,
  onFailure: (clientId: string | undefined, reason: string) => void,
): Promise<ClientApp> {
  if (!credentials.clientId) {
    onFailure(undefined, 'no client id');
    throw serviceError(401, 'invalid_client', 'App id failed');
  }
  const app = await apps.findApp(credentials.clientId);
  if (!app) {
    onFailure(credentials.clientId, 'unknown client');
    throw serviceError(401, 'invalid_client', 'Application does not exist');
  }
  if (!app.active) {
    onFailure(app.clientId, 'inactive app');
    throw serviceError(401, 'invalid_client', TEXT.appInactive(app.name));
  }
  if (!secretMatches(app, credentials.clientSecret)) {
    onFailure(app.clientId, 'bad secret');
    throw oauthError(401, 'invalid_client');
  }
  return app;
}
