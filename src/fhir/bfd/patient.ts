/**
 * A CCW beneficiary record → the CARIN Blue Button Patient, as BFD's v2 server builds it (its public
 * BeneficiaryTransformerV2): the beneficiary id as the member number, the current MBI and the earlier ones from
 * the beneficiary's history rows, name, sex, race, birth and death dates, state and ZIP code, and the
 * reference year's monthly Medicare-Medicaid dual eligibility (docs/claims-rif.md).
 */
import {
  DUAL_ELIGIBILITY,
  monthlyExtensions,
  present,
  referenceYear,
  referenceYearExtension,
} from './beneficiary-enrollment.js';
import { codingExtension, variableUrl, type Json } from './elements.js';
import { rifDate, type RifBeneficiary, type RifRow, type TransformContext } from './rif-record.js';

/** The CARIN Blue Button Patient profile BFD declares (unversioned). */
export const C4BB_PATIENT_PROFILE = 'http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-Patient';
/** The system of an unhashed Medicare Beneficiary Identifier. */
export const MBI_SYSTEM = 'http://hl7.org/fhir/sid/us-mbi';
/** The system of the HL7 v2 identifier types (table 0203: MB member number, MC Medicare number). */
export const IDENTIFIER_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0203';
/** Blue Button's code system marking an identifier as the current one or a historic one. */
export const IDENTIFIER_CURRENCY = 'https://bluebutton.cms.gov/resources/codesystem/identifier-currency';

/** BFD's request header that adds the derived mailing address (lines and city) to the Patient. */
export const INCLUDE_ADDRESS_FIELDS = 'IncludeAddressFields';
/** BFD's request header naming the identifiers to include; in v2 it changes nothing in the Patient. */
export const INCLUDE_IDENTIFIERS = 'IncludeIdentifiers';
const INCLUDE_IDENTIFIERS_VALUES = ['true', 'false', 'hicn', 'mbi'];

/** How BFD's request shapes the Patient. */
export interface PatientOptions {
  /**
   * The derived mailing address lines and city besides state and ZIP code: BFD's `IncludeAddressFields: true`.
   * Blue Button 2.0 always sends `includeAddressFields: False`, so its Patients have state and ZIP only.
   * Default false.
   */
  readonly includeAddressFields?: boolean;
  /**
   * The beneficiary's earlier MBIs (its history rows) as `historic` identifiers. BFD adds them on a read and on
   * the searches by `_id` and by identifier, not on the searches by Part D contract. Default true.
   */
  readonly historicalMbis?: boolean;
}

/** A request header's value was not one BFD accepts (BFD answers 400). */
export class InvalidHeaderError extends Error {
  override readonly name = 'InvalidHeaderError';
}

/**
 * The options a request's headers ask for, reading them as BFD does: header names in any case (BFD names it
 * `IncludeAddressFields`, Blue Button 2.0 sends `includeAddressFields`), `IncludeAddressFields` true only for
 * "true" in any case, and `IncludeIdentifiers` checked (throws InvalidHeaderError for a value BFD refuses) but
 * without effect: v2 never returns HICNs and returns every MBI anyway.
 */
export function patientOptionsFromHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): PatientOptions {
  includeIdentifiersValues(headerValue(headers, INCLUDE_IDENTIFIERS));
  return { includeAddressFields: headerValue(headers, INCLUDE_ADDRESS_FIELDS)?.toUpperCase() === 'TRUE' };
}

/**
 * The values of an `IncludeIdentifiers` header as BFD reads them: brackets around the list dropped, lower case,
 * split on commas, each one of true, false, hicn or mbi, distinct and sorted. An absent or empty header is [''].
 */
export function includeIdentifiersValues(raw: string | undefined): string[] {
  const list = (raw ?? '').trim().replace(/^\[|\]$/g, '');
  if (list.trim() === '') return [''];
  const values = list
    .toLowerCase()
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const value of values) {
    if (!INCLUDE_IDENTIFIERS_VALUES.includes(value)) {
      throw new InvalidHeaderError(`Unsupported ${INCLUDE_IDENTIFIERS} Header Value: |${value}|, ${raw}`);
    }
  }
  return [...new Set(values)].sort();
}

function headerValue(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}

/** A beneficiary → its Patient (id: the beneficiary id, `BENE_ID`). */
export function patientResource(
  bene: RifBeneficiary,
  context: TransformContext,
  options: PatientOptions = {},
): Json {
  void context;
  const row = bene.row;
  const patient: Json = {
    resourceType: 'Patient',
    id: row.BENE_ID!,
    meta: { profile: [C4BB_PATIENT_PROFILE] },
  };
  const extension = patientExtensions(row);
  if (extension.length > 0) patient.extension = extension;
  patient.identifier = patientIdentifiers(bene, options.historicalMbis ?? true);
  patient.name = [patientName(row)];
  patient.gender = gender(row);
  const birthDate = rifDate(row.BENE_BIRTH_DT ?? '');
  if (birthDate !== undefined) patient.birthDate = birthDate;
  const deathDate = rifDate(row.DEATH_DT ?? '');
  if (deathDate !== undefined) patient.deceasedDateTime = deathDate;
  else patient.deceasedBoolean = false;
  patient.address = [patientAddress(row, options.includeAddressFields ?? false)];
  return patient;
}

/** The US Core sex codes (SNOMED CT) for CCW sex code 1 (male) and 2 (female); US Core has none for unknown. */
const US_CORE_SEX: Readonly<Record<string, { readonly gender: string; readonly code: string }>> = {
  '1': { gender: 'male', code: '248153007' },
  '2': { gender: 'female', code: '248152002' },
};

function gender(row: RifRow): string {
  return US_CORE_SEX[present(row, 'BENE_SEX_IDENT_CD') ?? '']?.gender ?? 'unknown';
}

/**
 * US Core sex, the CCW race code with its US Core race (BFD's v2 gives every race code the OMB category
 * "unknown"), then the reference year and its twelve monthly dual-eligibility codes.
 */
function patientExtensions(row: RifRow): Json[] {
  const out: Json[] = [];
  const sex = US_CORE_SEX[present(row, 'BENE_SEX_IDENT_CD') ?? ''];
  if (sex !== undefined) {
    out.push({ url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex', valueCode: sex.code });
  }
  const race = present(row, 'BENE_RACE_CD');
  if (race !== undefined) {
    out.push(codingExtension('race', race.charAt(0)), UNKNOWN_US_CORE_RACE);
  }
  const year = referenceYear(row);
  if (year !== undefined) {
    out.push(referenceYearExtension(year), ...monthlyExtensions(row, DUAL_ELIGIBILITY));
  }
  return out;
}

const UNKNOWN_US_CORE_RACE: Json = {
  url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
  extension: [
    {
      url: 'ombCategory',
      valueCoding: {
        system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor',
        code: 'UNK',
        display: 'Unknown',
      },
    },
    { url: 'text', valueString: 'Unknown' },
  ],
};

/**
 * The member number (the beneficiary id), the current MBI with the period it is effective for, and, when asked,
 * each distinct earlier MBI of the history rows that is not the current one, marked historic.
 */
function patientIdentifiers(bene: RifBeneficiary, historical: boolean): Json[] {
  const row = bene.row;
  const out: Json[] = [
    {
      type: {
        coding: [{ system: IDENTIFIER_TYPE_SYSTEM, code: 'MB', display: 'Member Number' }],
      },
      system: variableUrl('bene_id'),
      value: row.BENE_ID!,
    },
  ];
  const current = present(row, 'MBI_NUM');
  if (current !== undefined) {
    const period: Json = {};
    const start = rifDate(row.EFCTV_BGN_DT ?? '');
    const end = rifDate(row.EFCTV_END_DT ?? '');
    if (start !== undefined) period.start = start;
    if (end !== undefined) period.end = end;
    out.push(mbiIdentifier(current, 'current', period));
  }
  if (historical) {
    const earlier = new Set<string>();
    for (const history of bene.history) {
      const mbi = present(history, 'MBI_NUM');
      if (mbi !== undefined && mbi !== current) earlier.add(mbi);
    }
    for (const mbi of earlier) out.push(mbiIdentifier(mbi, 'historic', {}));
  }
  return out;
}

/** An MBI identifier, its type coding marked current or historic; the period only when it has a date. */
function mbiIdentifier(value: string, currency: 'current' | 'historic', period: Json): Json {
  const identifier: Json = {
    type: {
      coding: [
        {
          extension: [
            {
              url: IDENTIFIER_CURRENCY,
              valueCoding: {
                system: IDENTIFIER_CURRENCY,
                code: currency,
                display: currency === 'current' ? 'Current' : 'Historic',
              },
            },
          ],
          system: IDENTIFIER_TYPE_SYSTEM,
          code: 'MC',
          display: "Patient's Medicare number",
        },
      ],
    },
    system: MBI_SYSTEM,
    value,
  };
  if (Object.keys(period).length > 0) identifier.period = period;
  return identifier;
}

/** The usual name: surname, given name and the middle initial as a second given name. */
function patientName(row: RifRow): Json {
  const name: Json = { use: 'usual' };
  const family = present(row, 'BENE_SRNM_NAME');
  if (family !== undefined) name.family = family;
  const given = [present(row, 'BENE_GVN_NAME'), present(row, 'BENE_MDL_NAME')?.charAt(0)].filter(
    (g): g is string => g !== undefined,
  );
  if (given.length > 0) name.given = given;
  return name;
}

/**
 * State and ZIP code of residence (`STATE_CODE`, `BENE_ZIP_CD`); with `includeAddressFields`, also the derived
 * mailing address lines (`DRVD_LINE_1_ADR` … `_6_`) and city (`CITY_NAME`), empty lines left out.
 */
function patientAddress(row: RifRow, includeAddressFields: boolean): Json {
  const address: Json = {};
  if (includeAddressFields) {
    const lines = [1, 2, 3, 4, 5, 6]
      .map((n) => present(row, `DRVD_LINE_${n}_ADR`))
      .filter((l): l is string => l !== undefined);
    if (lines.length > 0) address.line = lines;
    const city = present(row, 'CITY_NAME');
    if (city !== undefined) address.city = city;
  }
  const state = present(row, 'STATE_CODE');
  if (state !== undefined) address.state = state;
  const postalCode = present(row, 'BENE_ZIP_CD');
  if (postalCode !== undefined) address.postalCode = postalCode;
  return address;
}
