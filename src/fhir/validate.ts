/**
 * Shape checks for the resources a health plan loads: Patient, Coverage and ExplanationOfBenefit (each in
 * one patient's compartment) and the Organization and Practitioner resources they point at (a directory
 * shared by all patients), to the depth this service relies on; a resource that claims a CARIN Blue Button
 * profile (C4BB-*) must also meet that profile's required elements (profile-checks.ts). Pure: no I/O.
 */
import { isSamhsa } from './bfd/samhsa.js';
import { storedDayRange, type DayRange } from './date-search.js';
import { checkClaimedProfiles } from './profile-checks.js';
import type { SearchDate, SearchToken } from './store/resources.js';
import {
  DATE,
  DATE_TIME,
  LITERAL_REFERENCE,
  codeable,
  entries,
  hasCoding,
  isObject,
  matching,
  nonEmptyArray,
  object,
  oneOf,
  fail,
  type Json,
} from './resource-checks.js';

export { InvalidResource } from './resource-checks.js';

/** The types in a patient's compartment: what the FHIR routes search and read per patient. */
export type ResourceType = 'Patient' | 'Coverage' | 'ExplanationOfBenefit';
export const RESOURCE_TYPES: readonly ResourceType[] = ['Patient', 'Coverage', 'ExplanationOfBenefit'];
export const PATIENT_RESOURCE_TYPES = RESOURCE_TYPES;

/** The directory types: in no patient's compartment, referred to by claims and coverages. */
export type DirectoryResourceType = 'Organization' | 'Practitioner';
export const DIRECTORY_RESOURCE_TYPES: readonly DirectoryResourceType[] = ['Organization', 'Practitioner'];

/** Everything `fhir import` accepts. */
export type ImportableResourceType = ResourceType | DirectoryResourceType;
export const IMPORTABLE_RESOURCE_TYPES: readonly ImportableResourceType[] = [
  ...RESOURCE_TYPES,
  ...DIRECTORY_RESOURCE_TYPES,
];

/**
 * The claim types of Blue Button's ExplanationOfBenefit ids and `type` search (docs/decisions.md#fhir-ids,
 * #fhir-search).
 */
export const EOB_TYPES = [
  'carrier',
  'inpatient',
  'outpatient',
  'pde',
  'dme',
  'hha',
  'hospice',
  'snf',
] as const;
export type EobType = (typeof EOB_TYPES)[number];
export const EOB_TYPE_SYSTEM = 'https://bluebutton.cms.gov/resources/codesystem/eob-type';

/** What the store indexes a resource by, read from its body. */
export interface ResourceFacts {
  resourceType: ImportableResourceType;
  id: string;
  /** The Patient id the resource belongs to; `null` for directory resources (in no compartment). */
  patientId: string | null;
  /** Other resources it points at, which must exist. */
  references: { resourceType: ImportableResourceType; id: string }[];
  /** The claim type; `null` for other resources and for EOBs of a kind Blue Button has no type for (oral). */
  eobType: EobType | null;
  /**
   * `YYYY-MM-DD` of the service for `service-date` search: the EOB's billable period end (the claim's
   * through date, as Blue Button's backend filters), its start when it has no end
   * (docs/decisions.md#fhir-search).
   */
  serviceDate: string | null;
  /** The tokens of token searches filtered in SQL (EOB `identifier`). */
  tokens: SearchToken[];
  /** The days of the date searches with several values per resource (EOB `service-start-date`, …). */
  dates: SearchDate[];
  /** Whether BB2 withholds the EOB from `excludeSAMHSA=true` searches (fhir/bfd/samhsa.ts, BFD's rule). */
  samhsa: boolean;
}

/** The facts of a resource no search filters on beyond its compartment, type, id and last update. */
const unsearched = () => ({
  eobType: null,
  serviceDate: null,
  tokens: [],
  dates: [],
  samhsa: false,
});

const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const CLAIM_TYPE = 'http://terminology.hl7.org/CodeSystem/claim-type';
const INSTITUTIONAL_SUBTYPE = 'http://hl7.org/fhir/us/carin-bb/CodeSystem/C4BBInstitutionalClaimSubType';

/** `{"reference": "Type/id"}` pointing at a resource of `type`; returns the id. */
function reference(value: unknown, type: ResourceType, path: string): string {
  const ref = object(value, path).reference;
  const match = typeof ref === 'string' ? LITERAL_REFERENCE.exec(ref) : null;
  if (!match || match[1] !== type) fail(`${path}.reference must be "${type}/<id>"`);
  return match[2]!;
}

/**
 * The directory resource a Reference names literally (`Organization/<id>`, `Practitioner/<id>`), if it
 * does: such a reference must resolve, like a Coverage's. A logical reference (identifier, display) is
 * not checked here; profile-checks.ts requires literal ones of resources claiming a C4BB profile.
 */
function directoryReference(value: unknown, path: string): ResourceFacts['references'] {
  if (!isObject(value) || typeof value.reference !== 'string') return [];
  const match = LITERAL_REFERENCE.exec(value.reference);
  if (!match) fail(`${path}.reference must be "<type>/<id>"`);
  if (!(DIRECTORY_RESOURCE_TYPES as readonly string[]).includes(match[1]!)) return [];
  return [{ resourceType: match[1] as DirectoryResourceType, id: match[2]! }];
}

function patient(r: Json, id: string): ResourceFacts {
  nonEmptyArray(r.identifier, 'identifier');
  const names = nonEmptyArray(r.name, 'name').map((n, i) => object(n, `name[${i}]`));
  if (!names.some((n) => typeof n.family === 'string' || Array.isArray(n.given)))
    fail('name needs a family or given');
  oneOf(r.gender, ['male', 'female', 'other', 'unknown'], 'gender');
  matching(r.birthDate, DATE, 'birthDate', 'a FHIR date');
  return { resourceType: 'Patient', id, patientId: id, references: [], ...unsearched() };
}

function coverage(r: Json, id: string): ResourceFacts {
  oneOf(r.status, ['active', 'cancelled', 'draft', 'entered-in-error'], 'status');
  const patientId = reference(r.beneficiary, 'Patient', 'beneficiary');
  const payors = nonEmptyArray(r.payor, 'payor');
  return {
    resourceType: 'Coverage',
    id,
    patientId,
    references: [
      { resourceType: 'Patient', id: patientId },
      ...payors.flatMap((p, i) => directoryReference(object(p, `payor[${i}]`), `payor[${i}]`)),
    ],
    ...unsearched(),
  };
}

/** A directory resource: an Organization needs a name or an identifier (org-1), a Practitioner an identifier or name. */
function directory(r: Json, type: DirectoryResourceType, id: string): ResourceFacts {
  if (type === 'Organization') {
    if (typeof r.name !== 'string' && !Array.isArray(r.identifier))
      fail('an Organization needs a name or an identifier (org-1)');
  } else {
    entries(r.name, 'name');
  }
  if (r.active !== undefined && typeof r.active !== 'boolean') fail('active must be true or false');
  return { resourceType: type, id, patientId: null, references: [], ...unsearched() };
}

/**
 * The claim type: the eob-type coding if present, else the `<type>--` prefix of the id, else what the HL7
 * claim-type (and CARIN institutional sub-type) says — pharmacy → pde, professional → carrier, institutional
 * → inpatient or outpatient; oral and vision claims have no Blue Button type (`null`).
 */
function eobTypeOf(r: Json, id: string): EobType | null {
  const codings = codeable(r.type, 'type');
  const coded = codings.find((c) => c.system === EOB_TYPE_SYSTEM)?.code;
  const candidate = typeof coded === 'string' ? coded.toLowerCase() : id.split('--')[0]!.toLowerCase();
  if ((EOB_TYPES as readonly string[]).includes(candidate)) return candidate as EobType;
  const claimType =
    typeof coded === 'string' ? undefined : codings.find((c) => c.system === CLAIM_TYPE)?.code;
  if (claimType === 'pharmacy') return 'pde';
  if (claimType === 'professional') return 'carrier';
  if (claimType === 'institutional')
    return hasCoding(r.subType, INSTITUTIONAL_SUBTYPE, 'inpatient') ? 'inpatient' : 'outpatient';
  if (claimType === 'oral' || claimType === 'vision') return null;
  return fail(`type must carry a ${EOB_TYPE_SYSTEM} code of ${EOB_TYPES.join(', ')} or an HL7 claim-type`);
}

/** The search parameters of the EOB facts kept in side tables (store/resources.ts). */
export const EOB_IDENTIFIER = 'identifier';
export const SERVICE_START_DATE = 'service-start-date';
export const BILLABLE_PERIOD_START = 'billable-period-start';

const DATE_OR_DATE_TIME = new RegExp(`${DATE.source}|${DATE_TIME.source}`);

/**
 * A FHIR `date` (or, with `dateTime`, a `date` or `dateTime`) that can be — no month 13, no Feb 30 — with
 * the days it spans.
 */
function calendarDate(value: unknown, path: string, dateTime = false): { text: string; days: DayRange } {
  const what = dateTime ? 'a FHIR dateTime' : 'a FHIR date';
  const text = matching(value, dateTime ? DATE_OR_DATE_TIME : DATE, path, what);
  return { text, days: storedDayRange(text) ?? fail(`${path} must be ${what}`) };
}

/**
 * What the EOB searches filter on beyond patient and type, read from the body and checked as it is read
 * (`InvalidResource` with a path): `service-date` is the billable period's end, else its start; the
 * `identifier` tokens; the days of `billable-period-start` (billablePeriod.start) and of CARIN BB's
 * `service-start-date` (billablePeriod.start | item.servicedDate | item.servicedPeriod.start), each span of
 * days once; and whether BB2 withholds it from `excludeSAMHSA=true` (fhir/bfd/samhsa.ts, BFD's rule).
 * Exported for writers that build EOBs themselves (the RIF ingest) and store the same facts.
 */
export function eobSearchFacts(r: Json): Pick<ResourceFacts, 'serviceDate' | 'tokens' | 'dates' | 'samhsa'> {
  const period = object(r.billablePeriod, 'billablePeriod');
  const start = calendarDate(period.start, 'billablePeriod.start');
  const end = period.end === undefined ? undefined : calendarDate(period.end, 'billablePeriod.end', true);
  const serviceStarts = [start.days];
  entries(r.item, 'item').forEach((item, i) => {
    if (item.servicedDate !== undefined)
      serviceStarts.push(calendarDate(item.servicedDate, `item[${i}].servicedDate`).days);
    const periodStart =
      item.servicedPeriod === undefined
        ? undefined
        : object(item.servicedPeriod, `item[${i}].servicedPeriod`).start;
    if (periodStart !== undefined)
      serviceStarts.push(calendarDate(periodStart, `item[${i}].servicedPeriod.start`, true).days);
  });
  const distinct = new Map(serviceStarts.map((d) => [`${d.first} ${d.last}`, d]));
  return {
    serviceDate: (end ?? start).text.slice(0, 10),
    tokens: entries(r.identifier, 'identifier').flatMap((identifier) =>
      typeof identifier.value === 'string'
        ? [
            {
              param: EOB_IDENTIFIER,
              system: typeof identifier.system === 'string' ? identifier.system : '',
              value: identifier.value,
            },
          ]
        : [],
    ),
    dates: [
      { param: BILLABLE_PERIOD_START, ...start.days },
      ...[...distinct.values()].map((d) => ({ param: SERVICE_START_DATE, ...d })),
    ],
    samhsa: isSamhsa(r),
  };
}

function explanationOfBenefit(r: Json, id: string): ResourceFacts {
  nonEmptyArray(r.identifier, 'identifier');
  oneOf(r.status, ['active', 'cancelled', 'draft', 'entered-in-error'], 'status');
  const eobType = eobTypeOf(r, id);
  oneOf(r.use, ['claim'], 'use');
  const patientId = reference(r.patient, 'Patient', 'patient');
  const searched = eobSearchFacts(r);
  matching(r.created, DATE_TIME, 'created', 'a FHIR dateTime');
  const references: ResourceFacts['references'] = [
    { resourceType: 'Patient', id: patientId },
    ...directoryReference(object(r.insurer, 'insurer'), 'insurer'),
    ...directoryReference(object(r.provider, 'provider'), 'provider'),
    ...entries(r.careTeam, 'careTeam').flatMap((member, i) =>
      directoryReference(object(member.provider, `careTeam[${i}].provider`), `careTeam[${i}].provider`),
    ),
  ];
  oneOf(r.outcome, ['queued', 'complete', 'error', 'partial'], 'outcome');
  nonEmptyArray(r.insurance, 'insurance').forEach((entry, i) => {
    const insurance = object(entry, `insurance[${i}]`);
    if (typeof insurance.focal !== 'boolean') fail(`insurance[${i}].focal must be true or false`);
    references.push({
      resourceType: 'Coverage',
      id: reference(insurance.coverage, 'Coverage', `insurance[${i}].coverage`),
    });
  });
  nonEmptyArray(r.total, 'total');
  return { resourceType: 'ExplanationOfBenefit', id, patientId, references, eobType, ...searched };
}

/** Checks one resource and returns what the store needs from it; throws `InvalidResource` with a path. */
export function validateResource(value: unknown): ResourceFacts {
  const r = object(value, 'resource');
  const type = oneOf(r.resourceType, IMPORTABLE_RESOURCE_TYPES, 'resourceType') as ImportableResourceType;
  const id = matching(r.id, ID, 'id', 'a FHIR id (1-64 of A-Z a-z 0-9 - .)');
  const facts =
    type === 'Patient'
      ? patient(r, id)
      : type === 'Coverage'
        ? coverage(r, id)
        : type === 'ExplanationOfBenefit'
          ? explanationOfBenefit(r, id)
          : directory(r, type, id);
  checkClaimedProfiles(r);
  return facts;
}
