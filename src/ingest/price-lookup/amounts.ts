import { Reject } from '../engine/tabular-format.js';

/**
 * An amount as the CMS addenda write it ("$4,146.335", "\"$9,891.33 \"", "$5.000") → integer mills,
 * exactly (no floating point: three-decimal rates must round the way they are written). Empty or "."
 * (the addenda's "none") → null.
 */
export function amountMills(column: string, text: string | undefined): number | null | Reject {
  const value = (text ?? '').trim();
  if (value === '' || value === '.') return null;
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,3}))?$/.exec(value);
  if (!match) return new Reject(`${column} "${value}" is not an amount`);
  const whole = Number(match[1]!.replace(/,/g, ''));
  const fraction = Number((match[2] ?? '').padEnd(3, '0'));
  return whole * 1000 + fraction;
}

/** A percentage ("19.787%") → thousandths of a percent (19787); empty → null. */
export function percentThousandths(column: string, text: string | undefined): number | null | Reject {
  const value = (text ?? '').trim();
  if (value === '') return null;
  const match = /^(\d{1,3})(?:\.(\d{1,3}))?\s*%$/.exec(value);
  if (!match) return new Reject(`${column} "${value}" is not a percentage`);
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** A HCPCS Level II or CPT code: five letters or digits. */
export const PROCEDURE_CODE = /^[A-Z0-9]{5}$/;

/**
 * A row that is not a procedure: empty, or a footnote written across the first cell (the addenda end with
 * "NOTE 1: …" lines). Such rows are skipped, not refused.
 */
export function isNoteRow(cells: Record<string, string>, codeColumn: string): boolean {
  const code = (cells[codeColumn] ?? '').trim();
  if (PROCEDURE_CODE.test(code.toUpperCase())) return false;
  return Object.entries(cells).every(([name, value]) => name === codeColumn || value.trim() === '');
}
