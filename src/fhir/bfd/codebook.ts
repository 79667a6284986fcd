/**
 * The CCW codebooks: for each CMS claims or enrollment variable its label and, for coded variables, the
 * meaning of each code. BFD gives a coding's `display` and an adjudication category's label from them
 * (docs/claims-rif.md#codebook). The table is generated from CMS's published codebook PDFs by
 * `scripts/codebook.ts` into `codebook-data.ts`.
 */
import { CODEBOOK } from './codebook-data.js';

/** One variable: its label and, when coded, code → description (a code listed twice has no display). */
export interface CodebookVariable {
  readonly label: string;
  readonly values?: Readonly<Record<string, string | null>>;
}

/** The variable's entry, by its CCW name in any case (`nch_clm_type_cd`, `NCH_CLM_TYPE_CD`). */
export function codebookVariable(variable: string): CodebookVariable | undefined {
  const key = variable.toLowerCase();
  return Object.hasOwn(CODEBOOK, key)
    ? (CODEBOOK as Readonly<Record<string, CodebookVariable>>)[key]
    : undefined;
}

/** The meaning of `code` of a coded variable, as BFD displays it; undefined when unknown or ambiguous. */
export function codeDisplay(variable: string, code: string): string | undefined {
  const values = codebookVariable(variable)?.values;
  return values && Object.hasOwn(values, code) ? (values[code] ?? undefined) : undefined;
}

/** The variable's label (e.g. "Line NCH Medicare Payment Amount"); undefined when not in the codebooks. */
export function variableLabel(variable: string): string | undefined {
  return codebookVariable(variable)?.label;
}
