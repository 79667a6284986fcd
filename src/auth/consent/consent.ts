import { logHandle, randomToken, sha256 } from '../../shared/crypto.js';
import type { ClientApp } from '../store/apps.js';
import type { Approval } from '../store/sessions.js';
import type { AuthDeps } from '../deps.js';
import { addCalendarMonths } from '../oauth/expiry.js';
import { withQuery } from '../oauth/redirect-uri.js';
import { isDemographic, TOKEN_SCOPES } from '../oauth/scopes.js';
import { randomUUID } from 'node:crypto';

export interface Decision {
  allow: boolean;
  /**
   * The personal-information checkbox; absent counts as not sharing (docs/decisions.md#personal-information).
   */
  shareDemographic: boolean;
}

/**
 * A 13-month grant runs 13 calendar months from the last consent; a 10 hours grant, the token's life
 * (docs/decisions.md#access-categories).
 */
export function grantExpiry(app: ClientApp, now: number, accessTokenTtlSeconds: number): number | null {
  if (app.dataAccessType === 'THIRTEEN_MONTH') return addCalendarMonths(now, 13);
  if (app.dataAccessType === 'ONE_TIME') return now + accessTokenTtlSeconds * 1000;
  return null;
}

/** The scopes a consent grants: personal ones only when the app asks for them and the enrollee agrees. */
export function grantedScopes(app: ClientApp, requested: string[], shareDemographic: boolean): string[] {
  const keepPersonal = app.requireDemographicScopes && shareDemographic;
  return requested.filter((s) => keepPersonal || !isDemographic(s));
}

/** What the consent page lists as granted on Connect, besides the personal information it asks about. */
export type ConsentItem = 'claims' | 'coverage' | 'identity';

/**
 * What the consent page shows for a request's scopes, so it names exactly what Connect grants: the claims
 * (ExplanationOfBenefit), the coverage, the enrollee's identity (`openid`, `launch/patient`), and the
 * personal-information checkbox only when personal scopes were asked for by an app that may collect them.
 */
export function consentContents(app: ClientApp, requested: readonly string[]) {
  const has = (resource: string) => requested.some((s) => s.startsWith(`patient/${resource}.`));
  const items: ConsentItem[] = [];
  if (has('ExplanationOfBenefit')) items.push('claims');
  if (has('Coverage')) items.push('coverage');
  if (requested.includes('openid') || requested.includes('launch/patient')) items.push('identity');
  return { items, askPersonal: app.requireDemographicScopes && requested.some(isDemographic) };
}

/**
 * Applies the enrollee's decision and returns where to send the browser (RFC 6749 §4.1.2):
 * Cancel → `error=access_denied`; Connect with nothing left to grant (personal information unchecked when
 * only it was asked for) → `access_denied` too. Neither touches an existing grant or its tokens. Otherwise
 * the grant is created or renewed and a 60-second code issued; the app's earlier tokens end only when
 * that code is redeemed (auth/store/codes.ts), so a forged authorize link that an enrollee is led to
 * approve cannot cut off the app's current access (RFC 9700 §4.4: the attacker gains nothing by it).
 */
export async function decide(
  deps: AuthDeps,
  app: ClientApp,
  approval: Approval,
  decision: Decision,
): Promise<string> {
  const { request } = approval;
  const now = deps.now();
  const denied = withQuery(request.redirectUri, { error: 'access_denied', state: request.state });
  if (!decision.allow) {
    deps.audit('consent', { client_id: app.clientId, enrollee: approval.enrolleeId, allow: false });
    return denied;
  }
  const scopes = grantedScopes(app, request.scopes, decision.shareDemographic);
  // `offline_access` and `fhirUser` alone give access to nothing: as good as an empty grant.
  if (scopes.every((s) => TOKEN_SCOPES.has(s))) {
    deps.audit('consent', {
      client_id: app.clientId,
      enrollee: approval.enrolleeId,
      allow: true,
      scopes: [],
    });
    return denied;
  }
  const code = randomToken();
  const codeHash = sha256(code);
  await deps.tokens.recordConsent(
    {
      id: randomUUID(),
      clientId: app.clientId,
      enrolleeId: approval.enrolleeId,
      createdAt: now,
      expiresAt: grantExpiry(app, now, deps.settings.accessTokenTtlSeconds),
    },
    {
      codeHash,
      clientId: app.clientId,
      enrolleeId: approval.enrolleeId,
      redirectUri: request.redirectUri,
      redirectUriGiven: request.redirectUriGiven,
      scope: scopes.join(' '),
      codeChallenge: request.codeChallenge,
      familyId: randomUUID(),
      expiresAt: now + deps.settings.codeTtlSeconds * 1000,
      usedAt: null,
      authTime: approval.authTime,
      nonce: request.nonce ?? null,
    },
    now,
  );
  deps.audit('consent', {
    client_id: app.clientId,
    enrollee: approval.enrolleeId,
    allow: true,
    share_demographic_scopes: decision.shareDemographic,
    scopes,
    code: logHandle(codeHash),
  });
  deps.audit('grant_changed', { client_id: app.clientId, enrollee: approval.enrolleeId, action: 'granted' });
  return withQuery(request.redirectUri, { code, state: request.state });
}
