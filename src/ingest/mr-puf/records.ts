/**
 * The records of the CMS QHP provider and formulary schema (CMSgov/QHP-provider-formulary-APIs:
 * plans.json, drugs.json, providers.json), checked one by one. A record that breaks the schema gives the
 * reason a person can act on, as a string.
 */

const PLAN_ID = /^[0-9]{5}[A-Z]{2}[0-9]{7}$/;
const RXCUI = /^[0-9]{1,10}$/;
const NPI = /^[0-9]{10}$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const strings = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

/** A plan's `years`: every element a year. */
function yearsOf(value: unknown, where: string): number[] | string {
  if (!Array.isArray(value) || value.length === 0)
    return `${where}: "years" must be a non-empty array of years`;
  const years = value.filter((y): y is number => Number.isInteger(y) && y >= 2013 && y <= 2100);
  return years.length === value.length ? years : `${where}: "years" holds something that is not a year`;
}

function planIdOf(record: Json, where: string): string {
  const id = text(record.plan_id);
  if (!PLAN_ID.test(id))
    throw new RecordError(`${where}: plan_id "${id.slice(0, 40)}" is not a 14-character HIOS plan id`);
  return id;
}

class RecordError extends Error {}

/** Runs a check that throws RecordError; its message as the refusal. */
function checked<T>(check: () => T): T | string {
  try {
    return check();
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
}

export interface PlanRecord {
  planId: string;
  marketingName: string;
  years: number[];
}

export function planRecord(value: unknown): PlanRecord | string {
  if (!isObject(value)) return 'a plan must be a JSON object';
  return checked(() => {
    const planId = planIdOf(value, 'plan');
    if (value.plan_id_type !== 'HIOS-PLAN-ID')
      throw new RecordError(`plan ${planId}: "plan_id_type" must be "HIOS-PLAN-ID"`);
    const marketingName = text(value.marketing_name);
    if (marketingName === '') throw new RecordError(`plan ${planId}: "marketing_name" is required`);
    const years = yearsOf(value.years, `plan ${planId}`);
    if (typeof years === 'string') throw new RecordError(years);
    return { planId, marketingName, years };
  });
}

export interface DrugListing {
  planId: string;
  years: number[];
  tier: string;
  priorAuthorization: boolean;
  stepTherapy: boolean;
  quantityLimit: boolean;
}

export interface DrugRecord {
  rxcui: string;
  plans: DrugListing[];
}

const flag = (value: unknown, name: string, where: string): boolean => {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new RecordError(`${where}: "${name}" must be true or false`);
  return value;
};

export function drugRecord(value: unknown): DrugRecord | string {
  if (!isObject(value)) return 'a drug must be a JSON object';
  return checked(() => {
    const rxcui = text(value.rxnorm_id);
    if (!RXCUI.test(rxcui)) throw new RecordError(`rxnorm_id "${rxcui.slice(0, 40)}" is not an RxCUI`);
    if (!Array.isArray(value.plans)) throw new RecordError(`drug ${rxcui}: "plans" must be an array`);
    const plans = value.plans.map((entry, i) => {
      const where = `drug ${rxcui}, plans[${i}]`;
      if (!isObject(entry)) throw new RecordError(`${where}: must be an object`);
      const planId = planIdOf(entry, where);
      const years = yearsOf(entry.years, where);
      if (typeof years === 'string') throw new RecordError(years);
      const tier = text(entry.drug_tier);
      if (tier === '') throw new RecordError(`${where}: "drug_tier" is required`);
      return {
        planId,
        years,
        tier,
        priorAuthorization: flag(entry.prior_authorization, 'prior_authorization', where),
        stepTherapy: flag(entry.step_therapy, 'step_therapy', where),
        quantityLimit: flag(entry.quantity_limit, 'quantity_limit', where),
      };
    });
    return { rxcui, plans };
  });
}

export interface ListedAddress {
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zipcode: string;
  phone: string;
}

export interface ProviderRecord {
  npi: string;
  type: 'Individual' | 'Facility';
  name: string;
  gender: string | null;
  specialties: string[];
  languages: string[];
  facilityTypes: string[];
  accepting: string;
  addresses: ListedAddress[];
  plans: { planId: string; years: number[]; tier: string }[];
}

/** The plan API's ProviderGenderEnum, by its lower case (issuers' files are not consistent in case). */
const GENDERS = new Map(
  ['Male', 'Female', 'Other', 'Transgender-female', 'Transgender-male', 'Non-binary', 'Non-disclose'].map(
    (g) => [g.toLowerCase(), g],
  ),
);
const ACCEPTING = new Set(['accepting', 'not accepting', 'accepting in some locations']);

function nameOf(value: Json, npi: string): string {
  if (!isObject(value.name)) throw new RecordError(`provider ${npi}: an individual needs a "name" object`);
  // As the NPPES ingest writes names: first middle last suffix (no prefix).
  const parts = ['first', 'middle', 'last', 'suffix'].map((p) => text((value.name as Json)[p]));
  const name = parts.filter((p) => p !== '').join(' ');
  if (name === '') throw new RecordError(`provider ${npi}: the name is empty`);
  return name;
}

function addressesOf(value: unknown, npi: string): ListedAddress[] {
  if (!Array.isArray(value)) return [];
  return value.map((a, i) => {
    if (!isObject(a)) throw new RecordError(`provider ${npi}, addresses[${i}]: must be an object`);
    const zip = text(a.zip).slice(0, 5);
    if (!/^[0-9]{5}$/.test(zip))
      throw new RecordError(`provider ${npi}, addresses[${i}]: zip "${text(a.zip)}" is not a ZIP code`);
    return {
      street_1: text(a.address),
      street_2: text(a.address_2),
      city: text(a.city),
      state: text(a.state),
      zipcode: zip,
      phone: text(a.phone),
    };
  });
}

export function providerRecord(value: unknown): ProviderRecord | string {
  if (!isObject(value)) return 'a provider must be a JSON object';
  return checked(() => {
    const npi = text(value.npi);
    if (!NPI.test(npi)) throw new RecordError(`npi "${npi.slice(0, 40)}" is not a 10-digit NPI`);
    const kind = text(value.type).toUpperCase();
    if (kind !== 'INDIVIDUAL' && kind !== 'FACILITY')
      throw new RecordError(`provider ${npi}: type "${text(value.type)}" is not INDIVIDUAL or FACILITY`);
    const facility = kind === 'FACILITY';
    const name = facility ? text(value.facility_name) : nameOf(value, npi);
    if (name === '') throw new RecordError(`provider ${npi}: a facility needs a "facility_name"`);
    if (!Array.isArray(value.plans)) throw new RecordError(`provider ${npi}: "plans" must be an array`);
    const plans = value.plans.map((entry, i) => {
      const where = `provider ${npi}, plans[${i}]`;
      if (!isObject(entry)) throw new RecordError(`${where}: must be an object`);
      const planId = planIdOf(entry, where);
      const years = yearsOf(entry.years, where);
      if (typeof years === 'string') throw new RecordError(years);
      return { planId, years, tier: text(entry.network_tier) };
    });
    const accepting = text(value.accepting).toLowerCase();
    return {
      npi,
      type: facility ? 'Facility' : 'Individual',
      name,
      gender: GENDERS.get(text(value.gender).toLowerCase()) ?? null,
      specialties: strings(value.specialty),
      languages: strings(value.languages),
      facilityTypes: strings(value.facility_type),
      accepting: ACCEPTING.has(accepting) ? accepting : 'unknown',
      addresses: addressesOf(value.addresses, npi),
      plans,
    };
  });
}

/** Which data file an element belongs to, from its own fields (for files given without an index). */
export function recordKind(value: unknown): 'plans' | 'drugs' | 'providers' | undefined {
  if (!isObject(value)) return undefined;
  if ('rxnorm_id' in value) return 'drugs';
  if ('npi' in value) return 'providers';
  if ('plan_id' in value && 'marketing_name' in value) return 'plans';
  return undefined;
}
