import type { ConnectedApp } from '../store/connected-apps.js';
import type { AuthDeps } from '../deps.js';

/** The apps holding a live data access grant of this enrollee (docs/decisions.md#connected-apps). */
export function connectedApps(deps: AuthDeps, enrolleeId: string): Promise<ConnectedApp[]> {
  return deps.connectedApps.listConnectedApps(enrolleeId, deps.now());
}

/**
 * The enrollee revokes one app's access in their own account (docs/decisions.md#connected-apps): the grant
 * is deleted and every token of the pair stops working at once. Undefined when it is not theirs or gone.
 */
export async function revokeConnectedApp(
  deps: AuthDeps,
  enrolleeId: string,
  grantId: string,
): Promise<ConnectedApp | undefined> {
  const grant = await deps.connectedApps.findConnectedApp(grantId);
  if (!grant || grant.enrolleeId !== enrolleeId) return undefined;
  const deleted = await deps.tokens.deleteGrant(
    grant.clientId,
    enrolleeId,
    'revoked-by-enrollee',
    deps.now(),
  );
  if (!deleted) return undefined;
  deps.audit('grant_changed', {
    client_id: grant.clientId,
    enrollee: enrolleeId,
    action: 'revoked-by-enrollee',
  });
  return grant;
}
