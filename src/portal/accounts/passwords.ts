import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's minimum parameters (m=19 MiB, t=2): passwords are low-entropy secrets. */
const PARAMS = { memoryCost: 19456, timeCost: 2 };

export const hashPassword = (password: string) => hash(password, PARAMS);

// Verified when the e-mail address is unknown, so both answers take as long.
const decoy = hash('no-developer-has-this-password', PARAMS);

/** Whether `password` matches `stored`; with no account, the decoy is verified and the answer is false. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) return verify(await decoy, password).then(() => false);
  return verify(stored, password).catch(() => false);
}

/** NIST SP 800-63B §5.1.1.2: at least 8 characters (we ask 10), long passphrases allowed. */
export function passwordProblem(password: string): 'passwordShort' | 'passwordLong' | undefined {
  if ([...password].length < 10) return 'passwordShort';
  if (password.length > 200) return 'passwordLong';
  return undefined;
}
