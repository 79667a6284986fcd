/**
 * The required elements of the CARIN Blue Button 2.0.0 profiles a resource claims in `meta.profile`: the
 * minimum cardinalities, required slices and fixed codes of each StructureDefinition (hl7.fhir.us.carin-bb
 * 2.0.0 snapshots), as far as this service relies on them. A resource that claims a C4BB profile and breaks
 * one is refused with the path and the profile's name; one claiming none keeps validate.ts's base checks.
 * Terminology is not checked beyond the fixed codes that pick a slice. Pure: no I/O.
 */
import { CARIN_SYSTEMS, c4bbProfileOf, profileUrl, type C4bbProfileName } from './carin.js';
import {
  codeable,
  entries,
  fail,
  hasCoding,
  isObject,
  literalReference,
  nonEmptyArray,
  object,
  type Json,
} from './resource-checks.js';

const CLAIM_TYPE = 'http://terminology.hl7.org/CodeSystem/claim-type';
const V2_0203 = CARIN_SYSTEMS.v2IdentifierType;

/** The resource type each profile constrains. */
const PROFILED_TYPE: Record<C4bbProfileName, string> = {
  'C4BB-Patient': 'Patient',
  'C4BB-Coverage': 'Coverage',
  'C4BB-Organization': 'Organization',
  'C4BB-Practitioner': 'Practitioner',
  'C4BB-ExplanationOfBenefit-Inpatient-Institutional': 'ExplanationOfBenefit',
  'C4BB-ExplanationOfBenefit-Outpatient-Institutional': 'ExplanationOfBenefit',
  'C4BB-ExplanationOfBenefit-Pharmacy': 'ExplanationOfBenefit',
  'C4BB-ExplanationOfBenefit-Professional-NonClinician': 'ExplanationOfBenefit',
  'C4BB-ExplanationOfBenefit-Oral': 'ExplanationOfBenefit',
};

/** The C4BB profiles `meta.profile` names; each must be versioned 2.0.x (its `*-meta-profile-version`). */
export function claimedProfiles(r: Json): C4bbProfileName[] {
  const profiles = isObject(r.meta) && Array.isArray(r.meta.profile) ? r.meta.profile : [];
  const claimed: C4bbProfileName[] = [];
  profiles.forEach((canonical, i) => {
    const profile = typeof canonical === 'string' ? c4bbProfileOf(canonical) : null;
    if (!profile) return;
    if (!profile.version?.startsWith('2.0.'))
      fail(
        `meta.profile[${i}] must name ${profileUrl(profile.name)}|2.0.0: ${profile.name} requires the ` +
          'major.minor version in meta.profile',
      );
    if (PROFILED_TYPE[profile.name] !== r.resourceType)
      fail(`meta.profile[${i}]: ${profile.name} is a profile of ${PROFILED_TYPE[profile.name]}`);
    claimed.push(profile.name);
  });
  return claimed;
}

/** Entries of `list` whose `field` CodeableConcept has `system#code`: the members of one slice. */
function slice(list: Json[], field: string, system: string, code: string): Json[] {
  return list.filter((e) => hasCoding(e[field], system, code));
}

/**
 * Checks the count of one slice and each member: `path:name` (e.g. `supportingInfo:dayssupply`), where it
 * is picked by `field` = `system#code`.
 */
function requireSlice(
  list: Json[],
  at: { path: string; name: string; profile: C4bbProfileName },
  pick: { field: string; system: string; code: string },
  count: [number, number],
  each: (entry: Json, path: string) => void = () => {},
) {
  const members = slice(list, pick.field, pick.system, pick.code);
  const [min, max] = count;
  if (members.length < min || members.length > max) {
    const wanted = min === max ? `exactly ${min}` : max === Infinity ? `at least ${min}` : `${min}..${max}`;
    fail(
      `${at.path} must have ${wanted} ${at.name} entr${min === 1 && max === 1 ? 'y' : 'ies'} ` +
        `(${at.path}.${pick.field} ${pick.system}#${pick.code}); ${at.profile} requires ${at.path}:${at.name}`,
    );
  }
  for (const member of members) each(member, `${at.path}[${list.indexOf(member)}]`);
}

const has = (value: unknown, path: string, profile: C4bbProfileName, what = 'present') => {
  if (value === undefined || value === null || value === '')
    fail(`${path} must be ${what} (${profile} requires it)`);
};

function patient(r: Json, profile: C4bbProfileName) {
  const identifiers = entries(r.identifier, 'identifier');
  identifiers.forEach((id, i) => {
    has(id.system, `identifier[${i}].system`, profile);
    has(id.value, `identifier[${i}].value`, profile);
  });
  requireSlice(
    identifiers,
    { path: 'identifier', name: 'memberid', profile },
    { field: 'type', system: V2_0203, code: 'MB' },
    [1, Infinity],
  );
}

function coverage(r: Json, profile: C4bbProfileName) {
  has(r.subscriberId, 'subscriberId', profile);
  codeable(r.relationship, 'relationship');
  const payors = nonEmptyArray(r.payor, 'payor');
  if (payors.length !== 1) fail(`payor must have exactly one entry (${profile} requires payor 1..1)`);
  literalReference(payors[0], ['Organization'], 'payor[0]');
}

function organization(r: Json, profile: C4bbProfileName) {
  if (typeof r.active !== 'boolean') fail(`active must be true or false (${profile} requires it)`);
  has(r.name, 'name', profile);
}

function practitioner(r: Json, profile: C4bbProfileName) {
  nonEmptyArray(r.identifier, 'identifier');
  nonEmptyArray(r.name, 'name').forEach((n, i) =>
    has(object(n, `name[${i}]`).family, `name[${i}].family`, profile),
  );
}

/** What every C4BB EOB profile requires (C4BB-ExplanationOfBenefit and its four claim profiles). */
function eobCommon(r: Json, profile: C4bbProfileName, providerTypes: readonly string[]) {
  requireSlice(
    entries(r.identifier, 'identifier'),
    { path: 'identifier', name: 'uniqueclaimid', profile },
    { field: 'type', system: CARIN_SYSTEMS.identifierType, code: 'uc' },
    [1, 1],
    (id, path) => has(id.value, `${path}.value`, profile),
  );
  literalReference(r.insurer, ['Organization'], 'insurer');
  literalReference(r.provider, providerTypes, 'provider');
  entries(r.careTeam, 'careTeam').forEach((member, i) => {
    literalReference(member.provider, ['Organization', 'Practitioner'], `careTeam[${i}].provider`);
    codeable(member.role, `careTeam[${i}].role`);
  });
  entries(r.supportingInfo, 'supportingInfo').forEach((info, i) => {
    has(info.sequence, `supportingInfo[${i}].sequence`, profile);
    codeable(info.category, `supportingInfo[${i}].category`);
  });
  nonEmptyArray(r.item, 'item').forEach((item, i) => {
    has(object(item, `item[${i}]`).sequence, `item[${i}].sequence`, profile);
    codeable(item && (item as Json).productOrService, `item[${i}].productOrService`);
  });
  nonEmptyArray(r.total, 'total').forEach((total, i) => {
    codeable(object(total, `total[${i}]`).category, `total[${i}].category`);
    has((total as Json).amount, `total[${i}].amount`, profile);
  });
}

function claimType(r: Json, codes: readonly string[], profile: C4bbProfileName) {
  if (!codes.some((code) => hasCoding(r.type, CLAIM_TYPE, code)))
    fail(`type must have the coding ${CLAIM_TYPE}#${codes.join(' or #')} (${profile})`);
}

function diagnoses(r: Json, profile: C4bbProfileName) {
  nonEmptyArray(r.diagnosis, 'diagnosis').forEach((d, i) => {
    const diagnosis = object(d, `diagnosis[${i}]`);
    codeable(diagnosis.diagnosisCodeableConcept, `diagnosis[${i}].diagnosisCodeableConcept`);
    const types = nonEmptyArray(diagnosis.type, `diagnosis[${i}].type`);
    if (types.length !== 1) fail(`diagnosis[${i}].type must have exactly one entry (${profile})`);
    codeable(types[0], `diagnosis[${i}].type[0]`);
  });
}

const statusSlice = (code: string) => ({
  field: 'category',
  system: CARIN_SYSTEMS.adjudicationDiscriminator,
  code,
});
const withReason = (entry: Json, path: string) => {
  codeable(entry.reason, `${path}.reason`);
};

/** Header `adjudication:benefitpaymentstatus` 1..1 (Pharmacy, Inpatient and Outpatient institutional). */
function headerPaymentStatus(r: Json, profile: C4bbProfileName) {
  requireSlice(
    entries(r.adjudication, 'adjudication'),
    { path: 'adjudication', name: 'benefitpaymentstatus', profile },
    statusSlice('benefitpaymentstatus'),
    [1, 1],
    withReason,
  );
}

function pharmacy(r: Json, profile: C4bbProfileName) {
  claimType(r, ['pharmacy'], profile);
  const info = entries(r.supportingInfo, 'supportingInfo');
  const quantity = (entry: Json, path: string) => {
    if (!isObject(entry.valueQuantity) || typeof entry.valueQuantity.value !== 'number')
      fail(`${path}.valueQuantity.value must be a number (${profile})`);
  };
  const at = (name: string) => ({ path: 'supportingInfo', name, profile });
  const pick = (code: string) => ({ field: 'category', system: CARIN_SYSTEMS.supportingInfoType, code });
  requireSlice(info, at('dayssupply'), pick('dayssupply'), [1, 1], quantity);
  requireSlice(info, at('dawcode'), pick('dawcode'), [1, 1], (e, p) => codeable(e.code, `${p}.code`));
  requireSlice(info, at('refillNum'), pick('refillnum'), [1, 1], quantity);
  requireSlice(info, at('refillsAuthorized'), pick('refillsauthorized'), [1, 1], quantity);
  (r.item as Json[]).forEach((item, i) => {
    has(item.servicedDate, `item[${i}].servicedDate`, profile);
    nonEmptyArray(item.adjudication, `item[${i}].adjudication`);
  });
  headerPaymentStatus(r, profile);
}

function institutional(r: Json, profile: C4bbProfileName, subType: 'inpatient' | 'outpatient') {
  claimType(r, ['institutional'], profile);
  if (!hasCoding(r.subType, CARIN_SYSTEMS.institutionalClaimSubType, subType))
    fail(`subType must have the coding ${CARIN_SYSTEMS.institutionalClaimSubType}#${subType} (${profile})`);
  diagnoses(r, profile);
  if (subType === 'inpatient') {
    requireSlice(
      entries(r.supportingInfo, 'supportingInfo'),
      { path: 'supportingInfo', name: 'admissionperiod', profile },
      { field: 'category', system: CARIN_SYSTEMS.supportingInfoType, code: 'admissionperiod' },
      [1, 1],
      (e, p) => object(e.timingPeriod, `${p}.timingPeriod`),
    );
  }
  (r.item as Json[]).forEach((item, i) => {
    if (subType === 'inpatient') codeable(item.revenue, `item[${i}].revenue`);
    else
      has(
        item.servicedDate,
        `item[${i}].servicedDate`,
        profile,
        'present (a date: the profile allows no period)',
      );
  });
  headerPaymentStatus(r, profile);
}

function professional(r: Json, profile: C4bbProfileName) {
  claimType(r, ['professional', 'vision'], profile);
  diagnoses(r, profile);
  (r.item as Json[]).forEach((item, i) => {
    codeable(item.locationCodeableConcept, `item[${i}].locationCodeableConcept`);
    if (item.servicedDate === undefined && item.servicedPeriod === undefined)
      fail(`item[${i}].servicedDate or item[${i}].servicedPeriod must be present (${profile})`);
    const adjudication = entries(item.adjudication, `item[${i}].adjudication`);
    if (adjudication.length < 2) fail(`item[${i}].adjudication must have at least 2 entries (${profile})`);
    requireSlice(
      adjudication,
      { path: `item[${i}].adjudication`, name: 'benefitpaymentstatus', profile },
      statusSlice('benefitpaymentstatus'),
      [1, 1],
      withReason,
    );
  });
}

/** Throws `InvalidResource` when `r` breaks a required element of a C4BB profile it claims. */
export function checkClaimedProfiles(r: Json): void {
  for (const profile of claimedProfiles(r)) {
    switch (profile) {
      case 'C4BB-Patient':
        patient(r, profile);
        break;
      case 'C4BB-Coverage':
        coverage(r, profile);
        break;
      case 'C4BB-Organization':
        organization(r, profile);
        break;
      case 'C4BB-Practitioner':
        practitioner(r, profile);
        break;
      case 'C4BB-ExplanationOfBenefit-Pharmacy':
        eobCommon(r, profile, ['Organization', 'Practitioner']);
        pharmacy(r, profile);
        break;
      case 'C4BB-ExplanationOfBenefit-Inpatient-Institutional':
        eobCommon(r, profile, ['Organization']);
        institutional(r, profile, 'inpatient');
        break;
      case 'C4BB-ExplanationOfBenefit-Outpatient-Institutional':
        eobCommon(r, profile, ['Organization']);
        institutional(r, profile, 'outpatient');
        break;
      case 'C4BB-ExplanationOfBenefit-Professional-NonClinician':
        eobCommon(r, profile, ['Organization', 'Practitioner']);
        professional(r, profile);
        break;
      case 'C4BB-ExplanationOfBenefit-Oral':
        eobCommon(r, profile, ['Organization', 'Practitioner']);
        claimType(r, ['oral'], profile);
        break;
    }
  }
}
