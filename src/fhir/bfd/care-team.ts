/**
 * `EOB.careTeam` as BFD builds it (TransformerUtilsV2.addCareTeamMember* in BFD's public repository): one
 * entry per practitioner identifier and role, numbered in order of arrival, reused when the same practitioner
 * comes again in the same role, and linked from an item through `item.careTeamSequence`. An NPI member is
 * named from NPPES (docs/claims-rif.md#names). Also the item's element order, which the claim lines share.
 */
import {
  CARE_TEAM_ROLE,
  type CareTeamRole,
  IDENTIFIER_TYPE,
  type IdentifierType,
  fixedCoding,
} from './carin.js';
import { variableCoding } from './elements.js';
import { type Json, variableUrl } from './elements.js';
import type { ClaimLookups } from './lookups.js';
import { npiOrganizationDisplay, npiProviderDisplay, npiTaxonomyCoding } from './npi-names.js';
import { arrayOf } from './supporting-info.js';

/** Reorders an object's keys in place: the listed keys first, in that order; the others after, as they were. */
export function orderKeys(obj: Json, order: readonly string[]): Json {
  const entries = Object.entries(obj);
  for (const [key] of entries) Reflect.deleteProperty(obj, key);
  const rank = (key: string): number => {
    const i = order.indexOf(key);
    return i < 0 ? order.length : i;
  };
  entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry[0]) - rank(b.entry[0]) || a.index - b.index)
    .forEach(({ entry: [key, value] }) => (obj[key] = value));
  return obj;
}

/** A care-team entry's elements in FHIR's order. */
export const CARE_TEAM_ORDER = [
  'extension',
  'sequence',
  'provider',
  'responsible',
  'role',
  'qualification',
] as const;

/** An item's elements in FHIR's order. */
export const ITEM_ORDER = [
  'extension',
  'sequence',
  'careTeamSequence',
  'diagnosisSequence',
  'procedureSequence',
  'informationSequence',
  'revenue',
  'category',
  'productOrService',
  'modifier',
  'programCode',
  'servicedDate',
  'servicedPeriod',
  'locationCodeableConcept',
  'locationAddress',
  'locationReference',
  'quantity',
  'unitPrice',
  'factor',
  'net',
  'udi',
  'bodySite',
  'subSite',
  'encounter',
  'noteNumber',
  'adjudication',
  'detail',
] as const;

/** The practitioner identifier types BFD uses for care-team members. */
export type PractitionerIdType = Extract<IdentifierType, 'npi' | 'upin' | 'pin' | 'tax'>;

function sameText(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

function findMember(eob: Json, type: PractitionerIdType, id: string, role: CareTeamRole): Json | undefined {
  const wantType = IDENTIFIER_TYPE[type];
  const wantRole = CARE_TEAM_ROLE[role];
  return arrayOf(eob, 'careTeam').find((member) => {
    const identifier = (member.provider as Json | undefined)?.identifier as Json | undefined;
    if (identifier === undefined || !sameText(identifier.value, id)) return false;
    const typeCodings = ((identifier.type as Json | undefined)?.coding ?? []) as Json[];
    if (!typeCodings.some((c) => sameText(c.system, wantType.system) && sameText(c.code, wantType.code)))
      return false;
    const roleCoding = (((member.role as Json | undefined)?.coding ?? []) as Json[])[0];
    return (
      roleCoding !== undefined &&
      sameText(roleCoding.system, wantRole.system) &&
      sameText(roleCoding.code, wantRole.code)
    );
  });
}

/** Adds the member's sequence to the item's `careTeamSequence` unless it is there already. */
export function linkCareTeam(item: Json | undefined, member: Json): void {
  if (item === undefined) return;
  const sequences = item.careTeamSequence as number[] | undefined;
  if (sequences === undefined) {
    item.careTeamSequence = [member.sequence];
    orderKeys(item, ITEM_ORDER);
  } else if (!sequences.includes(member.sequence as number)) sequences.push(member.sequence as number);
}

function addMember(
  eob: Json,
  item: Json | undefined,
  type: PractitionerIdType,
  role: CareTeamRole,
  id: string,
  display: () => string | undefined,
  qualification: () => Json | undefined,
): Json {
  let member = findMember(eob, type, id, role);
  if (member === undefined) {
    const team = arrayOf(eob, 'careTeam');
    const provider: Json = {
      identifier: { type: { coding: [fixedCoding(IDENTIFIER_TYPE[type])] }, value: id },
    };
    const name = display();
    if (name !== undefined) provider.display = name;
    member = { sequence: team.length + 1, provider, role: { coding: [fixedCoding(CARE_TEAM_ROLE[role])] } };
    const coding = qualification();
    if (coding !== undefined) member.qualification = { coding: [coding] };
    team.push(member);
  }
  linkCareTeam(item, member);
  return member;
}

/** How a care-team member is named and qualified. */
export interface CareTeamOptions {
  /** Add the NPI's NPPES primary taxonomy as the qualification (BFD does for most NPI members). */
  readonly taxonomy?: boolean;
}

/**
 * Adds (or reuses) a practitioner of the care team and links it from `item` when one is given. An NPI member
 * is displayed by its NPPES provider name; with `taxonomy` its NPPES primary taxonomy is the qualification.
 * Nothing happens, and undefined is returned, when the id is absent.
 */
export function addCareTeamMember(
  eob: Json,
  item: Json | undefined,
  type: PractitionerIdType,
  role: CareTeamRole,
  id: string | undefined,
  lookups: ClaimLookups,
  options: CareTeamOptions = {},
): Json | undefined {
  if (id === undefined || id === '') return undefined;
  return addMember(
    eob,
    item,
    type,
    role,
    id,
    () => (type === 'npi' ? npiProviderDisplay(lookups, id) : undefined),
    () => (options.taxonomy === true ? npiTaxonomyCoding(lookups, id) : undefined),
  );
}

/**
 * Adds (or reuses) an organisation NPI member (a carrier line's `ORG_NPI_NUM`): displayed by NPPES's
 * organisation name, never qualified.
 */
export function addCareTeamOrganization(
  eob: Json,
  item: Json | undefined,
  role: CareTeamRole,
  npi: string,
  lookups: ClaimLookups,
): Json {
  return addMember(
    eob,
    item,
    'npi',
    role,
    npi,
    () => npiOrganizationDisplay(lookups, npi),
    () => undefined,
  );
}

/**
 * Adds an extension coding a CCW variable to a care-team member unless one with the same URL and code is
 * there (BFD's addCareTeamExtension); nothing for an absent code.
 */
export function addCareTeamExtension(member: Json, variable: string, code: string | undefined): void {
  if (code === undefined || code === '') return;
  const extensions = arrayOf(member, 'extension');
  const url = variableUrl(variable);
  const coding = variableCoding(variable, code);
  const exists = extensions.some(
    (e) => e.url === url && (e.valueCoding as Json | undefined)?.code === coding.code,
  );
  if (!exists) extensions.push({ url, valueCoding: coding });
  orderKeys(member, CARE_TEAM_ORDER);
}

/**
 * Adds a coding of a CCW variable to a member's qualification unless one with the same system and code is
 * there (BFD's addCareTeamQualification); nothing for an absent code.
 */
export function addCareTeamQualification(member: Json, variable: string, code: string | undefined): void {
  if (code === undefined || code === '') return;
  const coding = variableCoding(variable, code);
  const qualification = (member.qualification as Json | undefined) ?? {};
  const codings = arrayOf(qualification, 'coding');
  if (!codings.some((c) => c.system === coding.system && c.code === coding.code)) codings.push(coding);
  member.qualification = qualification;
  orderKeys(member, CARE_TEAM_ORDER);
}
