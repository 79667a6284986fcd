import { randomUUID } from 'node:crypto';
import type { Enrollee, EnrolleeStore } from '../store/enrollees.js';
import { sandboxIdentity } from '../../fhir/sandbox-identity.js';
import { hashPassword } from '../oauth/login.js';

export { sandboxIdentity } from '../../fhir/sandbox-identity.js';

/** Builds `count` sandbox enrollees starting at number `from`; passwords hashed in parallel. */
export async function buildSandboxEnrollees(from: number, count: number): Promise<Enrollee[]> {
  const numbers = Array.from({ length: count }, (_, i) => from + i);
  return Promise.all(
    numbers.map(async (n) => {
      const identity = sandboxIdentity(n);
      return {
        id: randomUUID(),
        username: identity.username,
        passwordHash: await hashPassword(identity.password),
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
  store: EnrolleeStore,
  count: number,
  now: number,
): Promise<number> {
  const existing = await store.countEnrollees();
  if (existing >= count) return 0;
  const enrollees = await buildSandboxEnrollees(existing, count - existing);
  await store.insertEnrollees(enrollees, now);
  return enrollees.length;
}
