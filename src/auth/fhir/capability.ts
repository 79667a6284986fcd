import { RESOURCE_TYPES } from './validate.js';

/** The public CapabilityStatement (research §1.12): read and search-type on the three resources, SMART URIs. */
export function capabilityStatement(base: string, now: number) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date(now).toISOString().slice(0, 10),
    kind: 'instance',
    software: { name: 'openenroll' },
    implementation: {
      description: 'Enrollee claims data (CARIN Blue Button shaped)',
      url: `${base}/v2/fhir`,
    },
    fhirVersion: '4.0.1',
    format: ['application/json', 'application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: true,
          service: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'OAuth',
                  display: 'OAuth',
                },
                {
                  system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                  code: 'SMART-on-FHIR',
                  display: 'SMART-on-FHIR',
                },
              ],
            },
          ],
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [
                { url: 'token', valueUri: `${base}/v2/o/token/` },
                { url: 'authorize', valueUri: `${base}/v2/o/authorize/` },
                { url: 'revoke', valueUri: `${base}/v2/o/revoke_token/` },
              ],
            },
          ],
        },
        resource: RESOURCE_TYPES.map((type) => ({
          type,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          searchParam: [
            { name: '_lastUpdated', type: 'date' },
            ...(type === 'ExplanationOfBenefit'
              ? [
                  { name: 'patient', type: 'reference' },
                  { name: 'type', type: 'token' },
                  { name: 'service-date', type: 'date' },
                ]
              : type === 'Coverage'
                ? [{ name: 'beneficiary', type: 'reference' }]
                : [{ name: '_id', type: 'token' }]),
          ],
        })),
      },
    ],
  };
}
