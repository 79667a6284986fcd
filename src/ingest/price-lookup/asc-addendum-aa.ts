import { write } from '../engine/writes.js';
import { ascCopayCents, millsToCents } from '../../prices/copay.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { normaliseHeader } from '../engine/headers.js';
import { amountMills, isNoteRow, PROCEDURE_CODE } from './amounts.js';

/** The release's own column names: "January 2025 Payment Indicator", "January 2025  Payment Weight  ", … */
const INDICATOR = /^(?:[a-z]+ )?(\d{4}) payment indicator$/;
const RATE = /^(?:[a-z]+ )?(\d{4}) payment rate$/;

interface Layout {
  code: string;
  descriptor: string;
  /** The unnamed second column: "*" (office-based for now), "**" (preventive: no coinsurance). */
  comment: string | undefined;
  indicator: string;
  rate: string;
  year: number;
}

/** Where a file's columns are, from a row's keys (its header); undefined when it is not an Addendum AA. */
function layoutOf(names: string[]): Layout | undefined {
  const find = (test: (normalised: string) => boolean) => names.find((name) => test(normaliseHeader(name)));
  const code = find((n) => n === 'hcpcs code');
  const descriptor = find((n) => n === 'short descriptor');
  const indicator = find((n) => INDICATOR.test(n));
  const rate = find((n) => RATE.test(n));
  if (!code || !descriptor || !indicator || !rate) return undefined;
  const year = Number(RATE.exec(normaliseHeader(rate))![1]);
  return { code, descriptor, comment: names.find((name) => name === ''), indicator, rate, year };
}

/**
 * CMS ASC Addendum AA ("ASC Covered Surgical Procedures for CY …", CSV): title lines, then `HCPCS Code,
 * (comment), Short Descriptor, Subject to Multiple Procedure Discounting, <Month> <Year> Payment
 * Indicator, <Month> <Year> Payment Weight, <Month> <Year> Payment Rate`. Each code with a payment rate
 * becomes the price lookup's ambulatory surgical center (`ASC`) cost of that year: `total` = the national
 * payment rate; `copay` = `ascCopayCents` (20 %, none for the "**" preventive services). Packaged codes (no
 * rate) and the closing notes are skipped. The year is the payment columns' own.
 */
export const ascAddendumAaFormat: TabularFormat = {
  kind: 'asc-addendum-aa',
  summary: 'CMS ASC Addendum AA (ASC payment rates per HCPCS code): ambulatory surgical center costs',
  owns: [{ table: 'ppl_costs', scope: 'source' }],
  isHeader: (cells) => normaliseHeader(cells[0] ?? '') === 'hcpcs code',
  missingColumns(header) {
    if (layoutOf(header)) return [];
    return [
      'HCPCS Code',
      'Short Descriptor',
      '<Month> <Year> Payment Indicator',
      '<Month> <Year> Payment Rate',
    ];
  },
  start({ seen }) {
    let layout: Layout | undefined;
    const layoutFor = (cells: Record<string, string>) => (layout ??= layoutOf(Object.keys(cells))!);
    return {
      yearOf: (cells) => layoutFor(cells).year,
      row(cells, year) {
        const at = layoutFor(cells);
        if (isNoteRow(cells, at.code)) return [];
        const code = (cells[at.code] ?? '').trim().toUpperCase();
        if (!PROCEDURE_CODE.test(code)) return new Reject(`HCPCS Code "${code}" is not a 5-character code`);
        if (seen.has(code)) return new Reject(`HCPCS Code ${code} appears twice`);
        seen.add(code);
        const rate = amountMills(at.rate, cells[at.rate]);
        if (rate instanceof Reject) return rate;
        // Packaged (payment indicator N1 …): no separate ASC payment.
        if (rate === null) return [];
        const total = millsToCents(rate);
        const preventive = at.comment !== undefined && (cells[at.comment] ?? '').trim() === '**';
        return [
          write('ppl_costs', {
            year,
            facility_type: 'ASC',
            source: 'asc-addendum-aa',
            code,
            description: (cells[at.descriptor] ?? '').trim(),
            indicator: (cells[at.indicator] ?? '').trim(),
            apc: null,
            total_cents: total,
            copay_cents: ascCopayCents(total, preventive),
          }),
        ];
      },
    };
  },
};
