import { randomUUID } from 'node:crypto';
import { randomToken, sha256 } from '../../shared/crypto.js';
import type { ClientApp } from '../store/apps.js';
import type { Approval, PendingAuthorization } from '../store/sessions.js';
import type { AuthDeps } from '../deps.js';
import { messageError, pageError, TEXT } from '../oauth/errors.js';

/**
 * The enrollee a session secret belongs to, if it is still valid (any instance can answer), and when they
 * logged in (the session opens at login: OIDC Core `auth_time`).
 */
export async function enrolleeOfSession(
  deps: AuthDeps,
  secret: string | undefined,
): Promise<{ enrolleeId: string; authTime: number } | undefined> {
  if (!secret) return undefined;
  return deps.sessions.findSession(sha256(secret), deps.now());
}

/**
 * Opens a login session and returns its secret (stored only hashed). A new secret at every login prevents
 * session fixation; the browser's previous session, if any, ends.
 */
export async function openSession(
  deps: AuthDeps,
  enrolleeId: string,
  previous: string | undefined,
): Promise<string> {
  if (previous) await deps.sessions.deleteSession(sha256(previous));
  const secret = randomToken();
  const now = deps.now();
  await deps.sessions.insertSession(
    sha256(secret),
    enrolleeId,
    now,
    now + deps.settings.sessionTtlSeconds * 1000,
  );
  return secret;
}

/** Ends a login session (sign-out): its row goes, so the secret opens nothing on any instance. */
export async function closeSession(deps: AuthDeps, secret: string): Promise<void> {
  await deps.sessions.deleteSession(sha256(secret));
}

/** Records a validated authorization request awaiting the enrollee's decision; returns its id. */
export async function startApproval(
  deps: AuthDeps,
  session: { enrolleeId: string; authTime: number },
  app: ClientApp,
  pending: PendingAuthorization,
): Promise<string> {
  const now = deps.now();
  const id = randomUUID();
  await deps.sessions.insertApproval(
    {
      id,
      enrolleeId: session.enrolleeId,
      authTime: session.authTime,
      clientId: app.clientId,
      request: pending,
      expiresAt: now + deps.settings.approvalTtlSeconds * 1000,
    },
    now,
  );
  return id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A pending approval: it must exist, be fresh, belong to this enrollee, and its app be active. */
export async function loadApproval(
  deps: AuthDeps,
  id: string,
  enrolleeId: string | undefined,
): Promise<{ approval: Approval; app: ClientApp }> {
  if (!UUID.test(id)) throw messageError(404, 'Not found.');
  const approval = await deps.sessions.findApproval(id, deps.now());
  if (!enrolleeId || !approval || approval.enrolleeId !== enrolleeId) {
    throw pageError(400, 'invalid_request', 'sessionExpired');
  }
  const app = await deps.apps.findApp(approval.clientId);
  if (!app) throw pageError(400, 'invalid_client', 'Application does not exist (client_id)');
  if (!app.active) throw pageError(403, 'invalid_client', TEXT.appInactive(app.name));
  return { approval, app };
}

/** Takes the approval for a decision; only one request can (a double-submitted form gets the error page). */
export async function claimApproval(deps: AuthDeps, approval: Approval): Promise<void> {
  if (!(await deps.sessions.consumeApproval(approval.id)))
    throw pageError(400, 'invalid_request', 'sessionExpired');
}
