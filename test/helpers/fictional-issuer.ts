import { PLAIN_BENEFIT_CELLS } from '../../src/plans/tables/puf-columns.js';

/**
 * Fixture rows of a fictional issuer (99999, Texas, plan year 2031) in the CMS Exchange PUF layouts that
 * ../shared/data has no real file of (or no file small enough for a fixture), loaded through the real
 * ingest formats. No real issuer or plan is described by them.
 */

/** The cells that begin a row of the Service Area, Rate and Benefits and Cost Sharing PUFs. */
export const FICTIONAL_ISSUER_CELLS = {
  BusinessYear: '2031',
  StateCode: 'TX',
  IssuerId: '99999',
  SourceName: 'HIOS',
  ImportDate: '2030-08-01 01:02:03',
} as const;

/**
 * A Benefits and Cost Sharing PUF row (current layout) of the standard silver variant 99999TX0010001-01:
 * benefit `name`, covered, an EHB, no limits and no cost sharing that applies, unless `overrides` say so.
 */
export function benefitRow(name: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...FICTIONAL_ISSUER_CELLS,
    StandardComponentId: '99999TX0010001',
    PlanId: '99999TX0010001-01',
    BenefitName: name,
    ...PLAIN_BENEFIT_CELLS,
    CopayInnTier1: 'Not Applicable',
    CoinsInnTier1: 'Not Applicable',
    ...overrides,
  };
}
