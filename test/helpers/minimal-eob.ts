import type { ResourceRow } from '../../src/fhir/store/resources.js';
import { eobSearchFacts } from '../../src/fhir/validate.js';

/**
 * A minimal ExplanationOfBenefit of `patientId` as `fhir import` stores one: a carrier claim with an
 * identifier, a billable period and `status`, its row made from it. An invented claim, for tests only.
 */
export function minimalEob(
  id: string,
  patientId: string,
  lastUpdated: number,
  { status = 'active', versionId = '1' }: { status?: string; versionId?: string } = {},
): ResourceRow {
  const body = {
    resourceType: 'ExplanationOfBenefit',
    id,
    meta: { versionId },
    identifier: [{ system: 'https://payer.example/claims', value: id }],
    status,
    type: {
      coding: [{ system: 'https://bluebutton.cms.gov/resources/codesystem/eob-type', code: 'CARRIER' }],
    },
    use: 'claim',
    patient: { reference: `Patient/${patientId}` },
    billablePeriod: { start: '2024-02-01' },
    outcome: 'complete',
  };
  return {
    resourceType: 'ExplanationOfBenefit',
    id,
    patientId,
    eobType: 'carrier',
    lastUpdated,
    body: JSON.stringify(body),
    ...eobSearchFacts(body),
  };
}
