import { randomUUID } from 'node:crypto';
import type { Enrollee, EnrolleeStore } from '../store/enrollees.js';
import { hashPassword } from '../oauth/login.js';

const GIVEN = ['Jane', 'John', 'Maria', 'Jose', 'Linda', 'James', 'Ana', 'Robert', 'Rosa', 'Michael'];
const FAMILY = [
  'Doe',
  'Smith',
  'Garcia',
  'Johnson',
  'Martinez',
  'Brown',
  'Lopez',
  'Davis',
  'Hernandez',
  'Wilson',
];

/**
 * Synthetic sandbox enrollee number `n`: username `BBUser00000`…, password `PW00000!`… (public by design,
 * like the anchor's sandbox), and a stable negative patient id in the anchor's synthetic range.
 */
export function sandboxIdentity(n: number) {
  const digits = String(n).padStart(5, '0');
  return {
    username: `BBUser${digits}`,
    password: `PW${digits}!`,
    patientId: `-${19990000000001 + n}`,
    givenName: GIVEN[n % GIVEN.length]!,
    familyName: FAMILY[Math.floor(n / GIVEN.length) % FAMILY.length]!,
  };
}

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
