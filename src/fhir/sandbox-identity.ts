/**
 * Who the synthetic sandbox enrollees are: the generator writes their claims data, and the authorization
 * service makes their sandbox accounts from the same identities. Pure.
 */
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
 * like Blue Button's sandbox), and a stable negative patient id in Blue Button's synthetic range
 * (docs/decisions.md#sandbox-enrollees).
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
