import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { PatientPort } from '../deps.js';
import type { Enrollee, EnrolleeStore } from '../store/enrollees.js';

/**
 * argon2id at a small cost for the sandbox's own passwords only: they are published (`PW00000!`…) and kept
 * beside the hash, so a costly hash protects nothing and only delays a fresh start. The hash string names
 * its parameters, so logins verify it as any other (docs/decisions.md#sandbox-password-cost).
 */
const SANDBOX_HASH = { memoryCost: 1024, timeCost: 1 } as const;

/** Who the sandbox enrollees are: the sample claims data says (the patient port). */
type SandboxIdentities = Pick<PatientPort, 'sandboxIdentity'>;

/** Builds `count` sandbox enrollees starting at number `from`; their public passwords hashed cheaply, in parallel. */
export async function buildSandboxEnrollees(
  patients: SandboxIdentities,
  from: number,
  count: number,
): Promise<Enrollee[]> {
  const numbers = Array.from({ length: count }, (_, i) => from + i);
  return Promise.all(
    numbers.map(async (n) => {
      const identity = patients.sandboxIdentity(n);
      return {
        id: randomUUID(),
        username: identity.username,
        passwordHash: await hash(identity.password, SANDBOX_HASH),
        patientId: identity.patientId,
        givenName: identity.givenName,
        familyName: identity.familyName,
        email: `${identity.username.toLowerCase()}@sandbox.example`,
        sandboxPassword: identity.password,
      };
    }),
  );
}

/** Sandbox mode: makes sure the first `count` synthetic enrollees exist (idempotent, safe from several instances). */
export async function ensureSandboxEnrollees(
  deps: { enrollees: EnrolleeStore; patients: SandboxIdentities },
  count: number,
  now: number,
): Promise<number> {
  const existing = await deps.enrollees.countEnrollees();
  if (existing >= count) return 0;
  const enrollees = await buildSandboxEnrollees(deps.patients, existing, count - existing);
  await deps.enrollees.insertEnrollees(enrollees, now);
  return enrollees.length;
}
