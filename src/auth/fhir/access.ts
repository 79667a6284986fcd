import { detailError, TEXT } from '../oauth/errors.js';
import type { AccessTokenContext } from '../store/tokens.js';
import type { ResourceType } from './validate.js';

/**
 * Research §2.6: `.read` and `.rs` allow both interactions, `.r` only read by id, `.s` only search.
 * Patient access needs the personal-information scopes, which a consent without them never grants.
 */
export function requireScope(
  context: AccessTokenContext,
  type: ResourceType,
  interaction: 'read' | 'search',
): void {
  const held = context.scope.split(' ');
  const mode = interaction === 'read' ? 'r' : 's';
  if (![`read`, `rs`, mode].some((m) => held.includes(`patient/${type}.${m}`))) {
    throw detailError(403, TEXT.noPermission);
  }
}

/**
 * Research §4.2: a client naming someone else in a search is refused — Patient `_id` as not found, Coverage
 * `beneficiary` and EOB `patient` as forbidden.
 */
export function checkSubject(
  context: AccessTokenContext,
  type: ResourceType,
  subject: string | undefined,
): void {
  if (subject === undefined || subject === context.patientId) return;
  if (type === 'Patient') throw detailError(404, 'Not found.');
  throw detailError(403, TEXT.noPermission);
}
