/**
 * The enrollment columns of a CCW beneficiary record (the Master Beneficiary Summary File's base segment as the
 * `beneficiary` RIF file carries it) that both the Patient and the Coverage resources read: the reference year
 * and the twelve monthly values of each monthly variable (docs/claims-rif.md#rif).
 */
import { codingExtension, dateExtension, type Json } from './elements.js';
import { RIF_MONTHS, type RifRow } from './rif-record.js';

/** A column's value with surrounding blanks removed; undefined when the column is empty. */
export function present(row: RifRow, column: string): string | undefined {
  const value = (row[column] ?? '').trim();
  return value === '' ? undefined : value;
}

/**
 * One monthly variable: how its twelve RIF columns and its twelve CCW variables are named. `column(i)` and
 * `variable(i)` take the month number, 1 to 12.
 */
export interface MonthlyVariable {
  readonly column: (month: number) => string;
  readonly variable: (month: number) => string;
}

const two = (month: number): string => String(month).padStart(2, '0');
const monthName = (month: number): string => RIF_MONTHS[month - 1]!;

/** Medicare-Medicaid dual eligibility (`META_DUAL_ELGBL_STUS_JAN_CD` → CCW `dual_01`). */
export const DUAL_ELIGIBILITY: MonthlyVariable = {
  column: (m) => `META_DUAL_ELGBL_STUS_${monthName(m)}_CD`,
  variable: (m) => `dual_${two(m)}`,
};
/** Medicare entitlement and state buy-in (`MDCR_ENTLMT_BUYIN_1_IND` → `buyin01`). */
export const BUY_IN: MonthlyVariable = {
  column: (m) => `MDCR_ENTLMT_BUYIN_${m}_IND`,
  variable: (m) => `buyin${two(m)}`,
};
/** Medicare Advantage (HMO) enrollment (`HMO_1_IND` → `hmo_ind_01`). */
export const HMO_INDICATOR: MonthlyVariable = {
  column: (m) => `HMO_${m}_IND`,
  variable: (m) => `hmo_ind_${two(m)}`,
};
/** Part C contract (`PTC_CNTRCT_JAN_ID` → `ptc_cntrct_id_01`). */
export const PART_C_CONTRACT: MonthlyVariable = {
  column: (m) => `PTC_CNTRCT_${monthName(m)}_ID`,
  variable: (m) => `ptc_cntrct_id_${two(m)}`,
};
/** Part C plan benefit package (`PTC_PBP_JAN_ID` → `ptc_pbp_id_01`). */
export const PART_C_PBP: MonthlyVariable = {
  column: (m) => `PTC_PBP_${monthName(m)}_ID`,
  variable: (m) => `ptc_pbp_id_${two(m)}`,
};
/** Part C plan type (`PTC_PLAN_TYPE_JAN_CD` → `ptc_plan_type_cd_01`). */
export const PART_C_PLAN_TYPE: MonthlyVariable = {
  column: (m) => `PTC_PLAN_TYPE_${monthName(m)}_CD`,
  variable: (m) => `ptc_plan_type_cd_${two(m)}`,
};
/** Part D contract (`PTD_CNTRCT_JAN_ID` → `ptdcntrct01`). */
export const PART_D_CONTRACT: MonthlyVariable = {
  column: (m) => `PTD_CNTRCT_${monthName(m)}_ID`,
  variable: (m) => `ptdcntrct${two(m)}`,
};
/** Part D plan benefit package (`PTD_PBP_JAN_ID` → `ptdpbpid01`). */
export const PART_D_PBP: MonthlyVariable = {
  column: (m) => `PTD_PBP_${monthName(m)}_ID`,
  variable: (m) => `ptdpbpid${two(m)}`,
};
/** Part D segment (`PTD_SGMT_JAN_ID` → `sgmtid01`). */
export const PART_D_SEGMENT: MonthlyVariable = {
  column: (m) => `PTD_SGMT_${monthName(m)}_ID`,
  variable: (m) => `sgmtid${two(m)}`,
};
/** Part D low-income cost-sharing group (`CST_SHR_GRP_JAN_CD` → `cstshr01`). */
export const COST_SHARE_GROUP: MonthlyVariable = {
  column: (m) => `CST_SHR_GRP_${monthName(m)}_CD`,
  variable: (m) => `cstshr${two(m)}`,
};
/** Part D retiree drug subsidy (`RDS_JAN_IND` → `rdsind01`). */
export const RETIREE_DRUG_SUBSIDY: MonthlyVariable = {
  column: (m) => `RDS_${monthName(m)}_IND`,
  variable: (m) => `rdsind${two(m)}`,
};

/**
 * The monthly columns whose values, any of them, make a month count as a month of enrollment data. BFD's loader
 * keeps one "beneficiary monthly" record per such month of the reference year (Part D's monthly contract
 * extensions come from those records).
 */
const MONTH_DATA_COLUMNS: readonly ((month: number) => string)[] = [
  BUY_IN.column,
  (m) => `FIPS_STATE_CNTY_${monthName(m)}_CD`,
  HMO_INDICATOR.column,
  DUAL_ELIGIBILITY.column,
  (m) => `MDCR_STUS_${monthName(m)}_CD`,
  PART_C_CONTRACT.column,
  PART_C_PBP.column,
  PART_C_PLAN_TYPE.column,
  PART_D_CONTRACT.column,
  COST_SHARE_GROUP.column,
  PART_D_PBP.column,
  RETIREE_DRUG_SUBSIDY.column,
  PART_D_SEGMENT.column,
];

/** The months (1 to 12) of the reference year for which the record has any monthly enrollment value. */
export function monthsWithData(row: RifRow): number[] {
  const months: number[] = [];
  for (let m = 1; m <= 12; m++) {
    if (MONTH_DATA_COLUMNS.some((column) => (row[column(m)] ?? '') !== '')) months.push(m);
  }
  return months;
}

/** The coding extension of a coded CCW variable from one column; none when the column is empty. */
export function columnExtension(row: RifRow, column: string, variable: string): Json[] {
  const value = present(row, column);
  return value === undefined ? [] : [codingExtension(variable, value)];
}

/** The coding extensions of a monthly variable, January to December, skipping the empty months. */
export function monthlyExtensions(row: RifRow, monthly: MonthlyVariable): Json[] {
  const out: Json[] = [];
  for (let m = 1; m <= 12; m++) out.push(...columnExtension(row, monthly.column(m), monthly.variable(m)));
  return out;
}

/** The year of the record's enrollment data (`RFRNC_YR`), four digits; undefined when the record has none. */
export function referenceYear(row: RifRow): string | undefined {
  const raw = present(row, 'RFRNC_YR');
  if (raw === undefined || !/^\d+(\.\d*)?$/.test(raw)) return undefined;
  return String(Math.trunc(Number(raw))).padStart(4, '0');
}

/** The `rfrnc_yr` extension: the reference year as a FHIR date of year precision. */
export function referenceYearExtension(year: string): Json {
  return dateExtension('rfrnc_yr', year);
}
