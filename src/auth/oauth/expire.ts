import { textError } from '../../shared/errors.js';
import type { ClientApp } from '../store/apps.js';
import type { AuthDeps } from '../deps.js';

/**
 * Sandbox expire operation (docs/decisions.md#sandbox-expire): deletes this app's grant for
 * the patient, which ends its tokens exactly like a revocation or an expired grant would.
 */
export async function expireAuthenticatedUser(
  deps: AuthDeps,
  app: ClientApp,
  patientId: string,
): Promise<void> {
  const enrollee = await deps.enrollees.findEnrolleeByPatientId(patientId);
  if (!enrollee) throw textError(404, 'Patient was Not Found. Please check the id number and try again.');
  const deleted = await deps.tokens.deleteGrant(app.clientId, enrollee.id, 'sandbox-expire', deps.now());
  if (!deleted) throw textError(404, 'Data Access Grant was Not Found.');
  deps.audit('grant_changed', { client_id: app.clientId, enrollee: enrollee.id, action: 'expired' });
}
