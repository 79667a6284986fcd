import { sandboxIdentity } from './sandbox-identity.js';
import type { FhirStore, StoredResource } from './store/resources.js';
import { identifiersMatch } from './token-search.js';

/** A stored Patient as the authorization service sees it: its id and its name. */
export interface PatientSummary {
  id: string;
  givenName?: string;
  familyName?: string;
}

/** FHIR R4 §2.24.0.1 Identifier: the same system and value, compared exactly (as `identifier` search does). */
function hasIdentifier(patient: StoredResource, system: string, value: string): boolean {
  const body = JSON.parse(patient.body) as { identifier?: unknown };
  return identifiersMatch(body.identifier, [[{ system, code: value }]]);
}

/** The Patient's id and name: its official name, else its usual one, else its first; text values only. */
function summary(patient: StoredResource): PatientSummary {
  const body = JSON.parse(patient.body) as { name?: { use?: string; given?: unknown[]; family?: unknown }[] };
  const names = Array.isArray(body.name) ? body.name : [];
  const name = names.find((n) => n.use === 'official') ?? names.find((n) => n.use === 'usual') ?? names[0];
  const given = name?.given?.[0];
  const family = name?.family;
  return {
    id: patient.id,
    ...(typeof given === 'string' ? { givenName: given } : {}),
    ...(typeof family === 'string' ? { familyName: family } : {}),
  };
}

/**
 * The claims data's side of the authorization service's patient port (auth/deps.ts `PatientPort`): the
 * Patients an enrollee account links to, and who the sandbox enrollees are. server.ts passes it in.
 */
export function createPatientPort(fhir: FhirStore) {
  return {
    async findPatient(id: string): Promise<PatientSummary | undefined> {
      const patient = await fhir.findResource('Patient', id);
      return patient && summary(patient);
    },

    async findPatientByIdentifier(system: string, value: string): Promise<PatientSummary | undefined> {
      const matches = (await fhir.findPatientsHolding(value)).filter((p) => hasIdentifier(p, system, value));
      return matches.length === 1 ? summary(matches[0]!) : undefined;
    },

    sandboxIdentity,
  };
}
