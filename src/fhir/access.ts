import { detailError, NO_PERMISSION } from '../shared/detail-error.js';
import { NO_PATIENT } from './store/resources.js';
import type { TokenContext } from './deps.js';
import type { DirectoryResourceType, ResourceType } from './validate.js';

/** Every type the FHIR routes read by id: the patient's compartment and the directory it points at. */
export type ReadableType = ResourceType | DirectoryResourceType;

/**
 * The types whose read scope opens the directory (Organization, Practitioner): the ones that refer to it
 * (EOB `insurer`, `provider`, `careTeam.provider`; Coverage `payor`).
 */
const DIRECTORY_READERS: readonly ResourceType[] = ['ExplanationOfBenefit', 'Coverage'];

const isDirectoryType = (type: ReadableType): type is DirectoryResourceType =>
  type === 'Organization' || type === 'Practitioner';

/**
 * `.read` and `.rs` allow both interactions, `.r` only read by id, `.s` only search
 * (docs/decisions.md#scopes).
 */
function holds(context: TokenContext, type: ResourceType, interaction: 'read' | 'search'): boolean {
  const held = context.scope.split(' ');
  const mode = interaction === 'read' ? 'r' : 's';
  return ['read', 'rs', mode].some((m) => held.includes(`patient/${type}.${m}`));
}

/**
 * Whether the token's scopes allow this interaction on this type. Patient access needs the
 * personal-information scopes, which a consent without them never grants. Directory resources are in no
 * patient's compartment and have no scope of their own: a token that may read ExplanationOfBenefit or
 * Coverage may read them, as they are what those resources refer to (nothing else; there is no directory
 * search).
 */
export function permits(context: TokenContext, type: ReadableType, interaction: 'read' | 'search'): boolean {
  if (isDirectoryType(type)) {
    return interaction === 'read' && DIRECTORY_READERS.some((t) => holds(context, t, 'read'));
  }
  return holds(context, type, interaction);
}

/** `permits`, or 403 in Blue Button's words (docs/decisions.md#fhir-errors). */
export function requireScope(
  context: TokenContext,
  type: ReadableType,
  interaction: 'read' | 'search',
): void {
  if (!permits(context, type, interaction)) throw detailError(403, NO_PERMISSION);
}

/**
 * Whether a stored resource exists for the token: its own patient's, or a directory resource (stored in
 * no compartment). Another patient's resource does not exist for it (a read answers 404).
 */
export function withinReach(
  context: TokenContext,
  resource: { resourceType: string; patientId: string },
): boolean {
  if (isDirectoryType(resource.resourceType as ReadableType)) return resource.patientId === NO_PATIENT;
  return resource.patientId === context.patientId;
}

/**
 * What `_include` may add to a searchset: exactly what the token could read by id (scope and reach), so
 * an include never shows what a read would refuse — e.g. the Patient to a consent without the
 * personal-information scopes, or another patient's Coverage.
 */
export function mayRead(
  context: TokenContext,
  resource: { resourceType: string; patientId: string },
): boolean {
  return permits(context, resource.resourceType as ReadableType, 'read') && withinReach(context, resource);
}

/**
 * docs/decisions.md#patient-binding: a client naming someone else in a search is refused — Patient `_id` as
 * not found, Coverage `beneficiary` and EOB `patient` as forbidden.
 */
export function checkSubject(context: TokenContext, type: ResourceType, subject: string | undefined): void {
  if (subject === undefined || subject === context.patientId) return;
  if (type === 'Patient') throw detailError(404, 'Not found.');
  throw detailError(403, NO_PERMISSION);
}
