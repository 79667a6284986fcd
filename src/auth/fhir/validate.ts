/**
 * Shape checks for the resources a health plan loads: Patient, Coverage and ExplanationOfBenefit as the
 * CARIN Blue Button profiles require them (C4BB-Patient, C4BB-Coverage, C4BB-ExplanationOfBenefit-*), to
 * the depth this service relies on. Pure: no I/O.
 */

export type ResourceType = 'Patient' | 'Coverage' | 'ExplanationOfBenefit';
export const RESOURCE_TYPES: readonly ResourceType[] = ['Patient', 'Coverage', 'ExplanationOfBenefit'];

/** The claim types of the anchor's ExplanationOfBenefit ids and `type` search (research §4.3, §4.4). */
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
  resourceType: ResourceType;
  id: string;
  /** The Patient id the resource belongs to. */
  patientId: string;
  /** Other resources it points at, which must exist. */
  references: { resourceType: ResourceType; id: string }[];
  eobType: EobType | null;
  /** `YYYY-MM-DD` of the service (EOB billable period start), for `service-date` search. */
  serviceDate: string | null;
}

export class InvalidResource extends Error {}

type Json = Record<string, unknown>;

const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function fail(message: string): never {
  throw new InvalidResource(message);
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${path} must be an object`);
  return value as Json;
}

function nonEmptyArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) fail(`${path} must be a non-empty array`);
  return value;
}

function oneOf(value: unknown, allowed: readonly string[], path: string): string {
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(`${path} must be one of ${allowed.join(', ')}`);
  return value;
}

function matching(value: unknown, pattern: RegExp, path: string, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) fail(`${path} must be ${what}`);
  return value;
}

/** `{"reference": "Type/id"}` pointing at a resource of `type`; returns the id. */
function reference(value: unknown, type: ResourceType, path: string): string {
  const ref = object(value, path).reference;
  const match = typeof ref === 'string' ? /^([A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(ref) : null;
  if (!match || match[1] !== type) fail(`${path}.reference must be "${type}/<id>"`);
  return match[2]!;
}

function codeable(value: unknown, path: string): Json[] {
  return nonEmptyArray(object(value, path).coding, `${path}.coding`).map((c, i) =>
    object(c, `${path}.coding[${i}]`),
  );
}

function patient(r: Json, id: string): ResourceFacts {
  nonEmptyArray(r.identifier, 'identifier');
  const names = nonEmptyArray(r.name, 'name').map((n, i) => object(n, `name[${i}]`));
  if (!names.some((n) => typeof n.family === 'string' || Array.isArray(n.given)))
    fail('name needs a family or given');
  oneOf(r.gender, ['male', 'female', 'other', 'unknown'], 'gender');
  matching(r.birthDate, DATE, 'birthDate', 'a FHIR date');
  return { resourceType: 'Patient', id, patientId: id, references: [], eobType: null, serviceDate: null };
}

function coverage(r: Json, id: string): ResourceFacts {
  oneOf(r.status, ['active', 'cancelled', 'draft', 'entered-in-error'], 'status');
  const patientId = reference(r.beneficiary, 'Patient', 'beneficiary');
  nonEmptyArray(r.payor, 'payor');
  return {
    resourceType: 'Coverage',
    id,
    patientId,
    references: [{ resourceType: 'Patient', id: patientId }],
    eobType: null,
    serviceDate: null,
  };
}

/** The claim type: the eob-type coding if present, else the `<type>--` prefix of the id. */
function eobTypeOf(r: Json, id: string): EobType {
  const coded = codeable(r.type, 'type').find((c) => c.system === EOB_TYPE_SYSTEM)?.code;
  const candidate = typeof coded === 'string' ? coded.toLowerCase() : id.split('--')[0]!.toLowerCase();
  if (!(EOB_TYPES as readonly string[]).includes(candidate)) {
    fail(`type must carry a ${EOB_TYPE_SYSTEM} code of ${EOB_TYPES.join(', ')}`);
  }
  return candidate as EobType;
}

function explanationOfBenefit(r: Json, id: string): ResourceFacts {
  nonEmptyArray(r.identifier, 'identifier');
  oneOf(r.status, ['active', 'cancelled', 'draft', 'entered-in-error'], 'status');
  const eobType = eobTypeOf(r, id);
  oneOf(r.use, ['claim'], 'use');
  const patientId = reference(r.patient, 'Patient', 'patient');
  const period = object(r.billablePeriod, 'billablePeriod');
  const start = matching(period.start, DATE, 'billablePeriod.start', 'a FHIR date');
  matching(r.created, DATE_TIME, 'created', 'a FHIR dateTime');
  object(r.insurer, 'insurer');
  object(r.provider, 'provider');
  oneOf(r.outcome, ['queued', 'complete', 'error', 'partial'], 'outcome');
  const references: ResourceFacts['references'] = [{ resourceType: 'Patient', id: patientId }];
  nonEmptyArray(r.insurance, 'insurance').forEach((entry, i) => {
    const insurance = object(entry, `insurance[${i}]`);
    if (typeof insurance.focal !== 'boolean') fail(`insurance[${i}].focal must be true or false`);
    references.push({
      resourceType: 'Coverage',
      id: reference(insurance.coverage, 'Coverage', `insurance[${i}].coverage`),
    });
  });
  nonEmptyArray(r.total, 'total');
  return {
    resourceType: 'ExplanationOfBenefit',
    id,
    patientId,
    references,
    eobType,
    serviceDate: start.slice(0, 10),
  };
}

/** Checks one resource and returns what the store needs from it; throws `InvalidResource` with a path. */
export function validateResource(value: unknown): ResourceFacts {
  const r = object(value, 'resource');
  const type = oneOf(r.resourceType, RESOURCE_TYPES, 'resourceType') as ResourceType;
  const id = matching(r.id, ID, 'id', 'a FHIR id (1-64 of A-Z a-z 0-9 - .)');
  if (type === 'Patient') return patient(r, id);
  if (type === 'Coverage') return coverage(r, id);
  return explanationOfBenefit(r, id);
}
