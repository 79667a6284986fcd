import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';

/** A JWS compact token split into its decoded header and claims (no verification). */
export function decodeJwt(jwt: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = jwt.split('.');
  const decode = (part: string | undefined) =>
    JSON.parse(Buffer.from(part ?? '', 'base64url').toString()) as Record<string, unknown>;
  return { header: decode(header), claims: decode(claims) };
}

export interface Jwks {
  keys: (JsonWebKey & { kid: string; alg: string; use: string })[];
}

export async function fetchJwks(base: string): Promise<Jwks> {
  const response = await fetch(`${base}/.well-known/jwks.json`);
  if (response.status !== 200) throw new Error(`JWKS answered ${response.status}`);
  return (await response.json()) as Jwks;
}

/** True when `jwt` is RS256-signed by the key of its `kid` in `jwks` (checked with node:crypto alone). */
export function verifiesWith(jwt: string, jwks: Jwks): boolean {
  const [header, claims, signature] = jwt.split('.');
  const { kid, alg } = decodeJwt(jwt).header;
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk || alg !== 'RS256' || jwk.alg !== 'RS256') return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  return verify('sha256', Buffer.from(`${header}.${claims}`), key, Buffer.from(signature ?? '', 'base64url'));
}
