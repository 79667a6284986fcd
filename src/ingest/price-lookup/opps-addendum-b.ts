import { write } from '../engine/writes.js';
import { millsToCents, oppsCopayCents } from '../../prices/copay.js';
import { Reject, type TabularFormat } from '../engine/tabular-format.js';
import { lazyColumns, missingGroups, normaliseHeader } from '../engine/headers.js';
import { amountMills, isNoteRow, percentThousandths, PROCEDURE_CODE } from './amounts.js';

/** The columns every Addendum B has (normalised names). */
const REQUIRED = [
  ['hcpcs code'],
  ['short descriptor'],
  ['si'],
  ['apc'],
  ['payment rate'],
  ['national unadjusted copayment'],
  ['minimum unadjusted copayment'],
] as const;

/** The calendar year in a file name ("2025_january_web_addendum_b.12312024.csv" → 2025). */
function yearInFileName(file: string): number | undefined {
  const match = /(?:^|[^0-9])(20\d{2})(?:[^0-9]|$)/.exec(file);
  return match ? Number(match[1]) : undefined;
}

/**
 * CMS OPPS Addendum B ("Final OPPS Payment by HCPCS Code for CY …", the CSV of the quarterly release):
 * title lines, then `HCPCS Code, Short Descriptor, SI, APC, Relative Weight, Payment Rate, National
 * Unadjusted Copayment, Minimum Unadjusted Copayment, …`. Each separately paid code becomes the price
 * lookup's hospital outpatient (`HOPD`) cost of the year: `total` = the national payment rate; `copay` =
 * the addendum's adjusted beneficiary copayment where it prints one, else `oppsCopayCents`. Codes without
 * a payment rate (packaged, not paid under OPPS) are skipped; footnote lines too. Year: `--year`, else the
 * file name's.
 */
export const oppsAddendumBFormat: TabularFormat = {
  kind: 'opps-addendum-b',
  summary: 'CMS OPPS Addendum B (payment rate and copayments per HCPCS code): hospital outpatient costs',
  owns: [{ table: 'ppl_costs', scope: 'source' }],
  isHeader: (cells) => normaliseHeader(cells[0] ?? '') === 'hcpcs code',
  missingColumns: (header) => missingGroups(header, REQUIRED),
  yearFromFileName: yearInFileName,
  start({ seen }) {
    const columnsFor = lazyColumns();
    let codeColumn: string | undefined;
    return {
      row(cells, year) {
        const columns = columnsFor(cells);
        codeColumn ??= Object.keys(cells).find((name) => normaliseHeader(name) === 'hcpcs code')!;
        if (isNoteRow(cells, codeColumn)) return [];
        const code = columns.get(cells, 'hcpcs code').toUpperCase();
        if (!PROCEDURE_CODE.test(code)) return new Reject(`HCPCS Code "${code}" is not a 5-character code`);
        if (seen.has(code)) return new Reject(`HCPCS Code ${code} appears twice`);
        seen.add(code);
        const rate = amountMills('Payment Rate', columns.get(cells, 'payment rate'));
        if (rate instanceof Reject) return rate;
        // No national payment rate: packaged into other services, or not paid under OPPS.
        if (rate === null) return [];
        const national = amountMills(
          'National Unadjusted Copayment',
          columns.get(cells, 'national unadjusted copayment'),
        );
        const minimum = amountMills(
          'Minimum Unadjusted Copayment',
          columns.get(cells, 'minimum unadjusted copayment'),
        );
        const ira = percentThousandths(
          'IRA Coinsurance percentage',
          columns.get(cells, 'ira coinsurance percentage'),
        );
        const adjusted = amountMills(
          'Adjusted Beneficiary Copayment',
          columns.get(cells, 'adjusted beneficiary copayment'),
        );
        for (const value of [national, minimum, ira, adjusted]) if (value instanceof Reject) return value;
        const total = millsToCents(rate);
        const copay =
          adjusted !== null
            ? millsToCents(adjusted as number)
            : oppsCopayCents(
                {
                  paymentRate: rate,
                  nationalUnadjustedCopayment: national as number | null,
                  minimumUnadjustedCopayment: minimum as number | null,
                  iraCoinsurance: ira as number | null,
                },
                year,
              );
        if (copay > total) return new Reject(`the copayment of ${code} is more than its payment rate`);
        return [
          write('ppl_costs', {
            year,
            facility_type: 'HOPD',
            source: 'opps-addendum-b',
            code,
            description: columns.get(cells, 'short descriptor'),
            indicator: columns.get(cells, 'si'),
            apc: columns.get(cells, 'apc') || null,
            total_cents: total,
            copay_cents: copay,
          }),
        ];
      },
    };
  },
};
