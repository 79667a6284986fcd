/**
 * A CCW beneficiary record → its four CARIN Blue Button Coverages, one per Medicare part (A, B, C, D), as BFD's
 * v2 server builds them (its public CoverageTransformerV2): status and period from the part's termination code
 * and coverage dates, the MBI as subscriber id, and as extensions the entitlement codes and, when the record has
 * a reference year, that year's monthly enrollment values (docs/claims-rif.md).
 */
import {
  BUY_IN,
  COST_SHARE_GROUP,
  DUAL_ELIGIBILITY,
  HMO_INDICATOR,
  PART_C_CONTRACT,
  PART_C_PBP,
  PART_C_PLAN_TYPE,
  PART_D_CONTRACT,
  PART_D_PBP,
  PART_D_SEGMENT,
  RETIREE_DRUG_SUBSIDY,
  columnExtension,
  monthlyExtensions,
  monthsWithData,
  present,
  referenceYear,
  referenceYearExtension,
} from './beneficiary-enrollment.js';
import { variableCoding, variableUrl, type Json } from './elements.js';
import { rifDate, type RifBeneficiary, type RifRow, type TransformContext } from './rif-record.js';

/** The CARIN Blue Button Coverage profile BFD declares (unversioned). */
export const C4BB_COVERAGE_PROFILE = 'http://hl7.org/fhir/us/carin-bb/StructureDefinition/C4BB-Coverage';
/** The payor of every Medicare coverage. */
export const COVERAGE_ISSUER = 'Centers for Medicare and Medicaid Services';

/** The Medicare parts, each one Coverage; its id is `<prefix>-<BENE_ID>`. */
export const MEDICARE_SEGMENTS = [
  { part: 'A', prefix: 'part-a' },
  { part: 'B', prefix: 'part-b' },
  { part: 'C', prefix: 'part-c' },
  { part: 'D', prefix: 'part-d' },
] as const;
export type MedicarePart = (typeof MEDICARE_SEGMENTS)[number]['part'];

/** The id of a beneficiary's Coverage of one Medicare part (`part-a-567834`). */
export function coverageId(part: MedicarePart, beneId: string): string {
  return `part-${part.toLowerCase()}-${beneId}`;
}

/** A beneficiary → its Coverages of Parts A, B, C and D, in that order. */
export function coverageResources(bene: RifBeneficiary, context: TransformContext): Json[] {
  return MEDICARE_SEGMENTS.map(({ part }) => coverageResource(bene, part, context));
}

/**
 * The member identifier CARIN's Coverage profile marks must-support (the US Core `memberid` slice: type MB),
 * which BFD's v2 Coverage lacks: the beneficiary's MBI, as BFD's own Digital Insurance Card Coverage carries it
 * (docs/claims-rif.md#coverage-member-id). Our one addition to BFD's Coverage.
 */
export function memberIdentifier(mbi: string): Json {
  return {
    type: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MB', display: 'Member Number' },
      ],
    },
    system: 'http://hl7.org/fhir/sid/us-mbi',
    value: mbi,
  };
}

/** A beneficiary's Coverage of one Medicare part. */
export function coverageResource(bene: RifBeneficiary, part: MedicarePart, context: TransformContext): Json {
  void context;
  const row = bene.row;
  const year = referenceYear(row);
  const coverage: Json = {
    resourceType: 'Coverage',
    id: coverageId(part, row.BENE_ID!),
    meta: { profile: [C4BB_COVERAGE_PROFILE] },
  };
  const extension = PART_EXTENSIONS[part](row, year);
  if (extension.length > 0) coverage.extension = extension;
  const mbi = present(row, 'MBI_NUM');
  if (mbi !== undefined) coverage.identifier = [memberIdentifier(mbi)];
  coverage.status = status(row, part);
  coverage.type = {
    coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'SUBSIDIZ' }],
  };
  if (mbi !== undefined) coverage.subscriberId = mbi;
  coverage.beneficiary = { reference: `Patient/${row.BENE_ID!}` };
  coverage.relationship = {
    coding: [
      {
        system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
        code: 'self',
        display: 'Self',
      },
    ],
  };
  const period = coveragePeriod(row, part);
  if (period !== undefined) coverage.period = period;
  coverage.payor = [{ identifier: { value: COVERAGE_ISSUER } }];
  coverage.class = [
    coverageClass('group', 'Group', 'Medicare'),
    coverageClass('plan', 'Plan', `Part ${part}`),
  ];
  return coverage;
}

/**
 * Parts A and B are active only while their termination code (`BENE_PTA_TRMNTN_CD`, `BENE_PTB_TRMNTN_CD`) is 0
 * ("not terminated"), cancelled otherwise, also when the code is missing; Parts C and D are always active.
 */
function status(row: RifRow, part: MedicarePart): string {
  const column = TERMINATION_COLUMN[part];
  if (column === undefined) return 'active';
  return present(row, column)?.charAt(0) === '0' ? 'active' : 'cancelled';
}

const TERMINATION_COLUMN: Readonly<Record<MedicarePart, string | undefined>> = {
  A: 'BENE_PTA_TRMNTN_CD',
  B: 'BENE_PTB_TRMNTN_CD',
  C: undefined,
  D: undefined,
};

/** The part's coverage start and end dates (`PTA_CVRG_STRT_DT` …); Part C has none. */
function coveragePeriod(row: RifRow, part: MedicarePart): Json | undefined {
  if (part === 'C') return undefined;
  const prefix = `PT${part}_CVRG`;
  const period: Json = {};
  const start = rifDate(row[`${prefix}_STRT_DT`] ?? '');
  const end = rifDate(row[`${prefix}_END_DT`] ?? '');
  if (start !== undefined) period.start = start;
  if (end !== undefined) period.end = end;
  return Object.keys(period).length > 0 ? period : undefined;
}

function coverageClass(code: string, display: string, value: string): Json {
  return {
    type: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code, display }],
    },
    value,
  };
}

/** Each part's extensions, in BFD's order; the monthly ones only when the record has a reference year. */
const PART_EXTENSIONS: Readonly<Record<MedicarePart, (row: RifRow, year: string | undefined) => Json[]>> = {
  A: (row, year) => [
    ...columnExtension(row, 'BENE_MDCR_STATUS_CD', 'ms_cd'),
    ...columnExtension(row, 'BENE_ENTLMT_RSN_ORIG', 'orec'),
    ...columnExtension(row, 'BENE_ENTLMT_RSN_CURR', 'crec'),
    ...columnExtension(row, 'BENE_ESRD_IND', 'esrd_ind'),
    ...columnExtension(row, 'BENE_PTA_TRMNTN_CD', 'a_trm_cd'),
    ...(year === undefined
      ? []
      : [
          referenceYearExtension(year),
          ...monthlyExtensions(row, DUAL_ELIGIBILITY),
          ...monthlyExtensions(row, BUY_IN),
        ]),
  ],
  B: (row, year) => [
    ...columnExtension(row, 'BENE_MDCR_STATUS_CD', 'ms_cd'),
    ...columnExtension(row, 'BENE_PTB_TRMNTN_CD', 'b_trm_cd'),
    ...(year === undefined
      ? []
      : [
          referenceYearExtension(year),
          ...monthlyExtensions(row, DUAL_ELIGIBILITY),
          ...monthlyExtensions(row, BUY_IN),
        ]),
  ],
  C: (row, year) =>
    year === undefined
      ? []
      : [
          ...monthlyExtensions(row, PART_C_CONTRACT),
          ...monthlyExtensions(row, PART_C_PBP),
          ...monthlyExtensions(row, PART_C_PLAN_TYPE),
          ...monthlyExtensions(row, HMO_INDICATOR),
          referenceYearExtension(year),
          ...monthlyExtensions(row, DUAL_ELIGIBILITY),
        ],
  D: (row, year) => [
    ...columnExtension(row, 'BENE_MDCR_STATUS_CD', 'ms_cd'),
    ...(year === undefined
      ? []
      : [
          ...monthlyExtensions(row, PART_D_CONTRACT),
          ...partDMonthlyContracts(row, year),
          ...monthlyExtensions(row, PART_D_PBP),
          ...monthlyExtensions(row, PART_D_SEGMENT),
          ...monthlyExtensions(row, COST_SHARE_GROUP),
          ...monthlyExtensions(row, RETIREE_DRUG_SUBSIDY),
          referenceYearExtension(year),
          ...monthlyExtensions(row, DUAL_ELIGIBILITY),
        ]),
  ],
};

/**
 * The Part D contract of each month of the reference year that has enrollment data, under a URL naming the
 * month (`…/ptdcntrct03/2018-3`), "0" (not enrolled) when the month has no contract. BFD writes these from the
 * monthly records its loader keeps; this record gives the months of its own reference year.
 */
function partDMonthlyContracts(row: RifRow, year: string): Json[] {
  return monthsWithData(row).map((m) => {
    const variable = PART_D_CONTRACT.variable(m);
    const contract = present(row, PART_D_CONTRACT.column(m)) ?? '0';
    return {
      url: `${variableUrl(variable)}/${Number(year)}-${m}`,
      valueCoding: variableCoding(variable, contract),
    };
  });
}
