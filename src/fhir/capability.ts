import { searchIncludes } from './include.js';

const CARIN = 'http://hl7.org/fhir/us/carin-bb';
const CARIN_VERSION = '2.0.0';
const carinProfile = (name: string) => `${CARIN}/StructureDefinition/${name}|${CARIN_VERSION}`;
const carinParam = (name: string) => `${CARIN}/SearchParameter/${name}|${CARIN_VERSION}`;
const baseParam = (name: string) => `http://hl7.org/fhir/SearchParameter/${name}`;

interface SearchParam {
  name: string;
  type: 'token' | 'reference' | 'date' | 'string';
  /**
   * The SearchParameter's canonical: CARIN BB 2.0.0's where it defines one, else base R4's; none for
   * Blue Button's own `excludeSAMHSA`, which no published SearchParameter defines.
   */
  definition?: string;
  /** Where the server reads a parameter its own way. */
  documentation?: string;
}

/** One resource type as this server serves it: its CARIN profiles and the searches it answers. */
export interface ServedResource {
  type: string;
  supportedProfile: string[];
  /** `read` alone for the directory types (no search); `read` and `search-type` for the others. */
  interaction: ('read' | 'search-type')[];
  searchParam: SearchParam[];
  /** The `_include` values served (fhir/include.ts). */
  searchInclude: string[];
}

const LAST_UPDATED: SearchParam = {
  name: '_lastUpdated',
  type: 'date',
  definition: baseParam('Resource-lastUpdated'),
};

const ID: SearchParam = {
  name: '_id',
  type: 'token',
  definition: baseParam('Resource-id'),
  documentation: 'A comma list of ids; repeated, every one applies.',
};

/**
 * What each resource type supports (search-params.ts parses these, include.ts serves `searchInclude`).
 * Organization and Practitioner are read only: CARIN's server statement makes their search a MAY.
 */
const ROWS: Omit<ServedResource, 'searchInclude'>[] = [
  {
    type: 'Patient',
    supportedProfile: [carinProfile('C4BB-Patient')],
    interaction: ['read', 'search-type'],
    searchParam: [
      { name: '_id', type: 'token', definition: baseParam('Resource-id') },
      { name: 'identifier', type: 'token', definition: baseParam('Patient-identifier') },
      LAST_UPDATED,
    ],
  },
  {
    type: 'Coverage',
    supportedProfile: [carinProfile('C4BB-Coverage')],
    interaction: ['read', 'search-type'],
    searchParam: [
      ID,
      { name: 'beneficiary', type: 'reference', definition: baseParam('Coverage-beneficiary') },
      LAST_UPDATED,
    ],
  },
  {
    type: 'ExplanationOfBenefit',
    supportedProfile: [
      'C4BB-ExplanationOfBenefit-Inpatient-Institutional',
      'C4BB-ExplanationOfBenefit-Outpatient-Institutional',
      'C4BB-ExplanationOfBenefit-Pharmacy',
      'C4BB-ExplanationOfBenefit-Professional-NonClinician',
    ].map(carinProfile),
    interaction: ['read', 'search-type'],
    searchParam: [
      ID,
      { name: 'patient', type: 'reference', definition: carinParam('explanationofbenefit-patient') },
      { name: 'identifier', type: 'token', definition: carinParam('explanationofbenefit-identifier') },
      { name: 'type', type: 'token', definition: carinParam('explanationofbenefit-type') },
      {
        name: 'service-date',
        type: 'date',
        definition: carinParam('explanationofbenefit-service-date'),
        documentation:
          "Compared with the claim's through date (billablePeriod.end, else billablePeriod.start), as Blue " +
          'Button 2.0 filters it.',
      },
      {
        name: 'service-start-date',
        type: 'date',
        definition: carinParam('explanationofbenefit-service-start-date'),
      },
      {
        name: 'billable-period-start',
        type: 'date',
        definition: carinParam('explanationofbenefit-billable-period-start'),
      },
      LAST_UPDATED,
      {
        name: 'excludeSAMHSA',
        type: 'string',
        documentation:
          '`true` leaves out the claims that carry a code of substance use disorder treatment ' +
          '(42 CFR Part 2).',
      },
    ],
  },
  ...(['Organization', 'Practitioner'] as const).map((type) => ({
    type,
    supportedProfile: [carinProfile(`C4BB-${type}`)],
    interaction: ['read' as const],
    searchParam: [],
  })),
];

export const SERVED_RESOURCES: readonly ServedResource[] = ROWS.map((resource) => ({
  ...resource,
  searchInclude: searchIncludes(resource.type),
}));

/**
 * The public CapabilityStatement (docs/decisions.md#capability-statement): read and search-type on the served
 * resources with their CARIN BB profiles and search parameters, JSON only, SMART URIs, CORS (shared/cors.ts).
 *
 * It names the CARIN BB implementation guide but does not `instantiates` CARIN's server statement
 * (`CapabilityStatement/c4bb`): the ExplanationOfBenefit, Coverage and Patient searches it makes SHALLs are
 * served, but its `_id` searches of Organization and Practitioner (read only here) and its RelatedPerson are
 * not. Each type lists exactly the parameters search-params.ts reads. Its `searchInclude` lists are CARIN's
 * less `ExplanationOfBenefit:payee`, plus `Coverage:*` (include.ts says why); `_include:iterate` is served
 * for them too.
 */
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
    implementationGuide: [`${CARIN}/ImplementationGuide/hl7.fhir.us.carin-bb|${CARIN_VERSION}`],
    rest: [
      {
        mode: 'server',
        security: {
          // Browser apps are answered across origins (auth/routes/cors.ts).
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
        resource: SERVED_RESOURCES.map((resource) => ({
          type: resource.type,
          supportedProfile: resource.supportedProfile,
          interaction: resource.interaction.map((code) => ({ code })),
          versioning: 'versioned',
          readHistory: false,
          conditionalRead: 'full-support',
          ...(resource.searchParam.length > 0 && { searchParam: resource.searchParam }),
          ...(resource.searchInclude.length > 0 && { searchInclude: resource.searchInclude }),
        })),
      },
    ],
  };
}
