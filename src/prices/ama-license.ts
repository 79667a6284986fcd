import type { FastifyRequest } from 'fastify';
import { jsonError } from '../shared/errors.js';

/** Which `amaLicense` values the price lookup accepts (the `PPL_AMA_LICENSE` setting). */
export type AmaLicensePolicy =
  { kind: 'any' } | { kind: 'none' } | { kind: 'listed'; values: readonly string[] };

/**
 * The price lookup's second header (its OpenAPI document: "All requests must include the `amaLicense`
 * header"): CPT descriptions are the AMA's. 403 when it is missing or not one the setting accepts.
 */
export function amaLicenseGate(policy: AmaLicensePolicy) {
  return async (request: FastifyRequest) => {
    if (policy.kind === 'none') return;
    const header = request.headers.amalicense;
    const value = typeof header === 'string' ? header.trim() : '';
    const accepted = policy.kind === 'any' ? value !== '' : policy.values.includes(value);
    if (!accepted) throw jsonError(403, { message: 'Missing or invalid amaLicense' });
  };
}
