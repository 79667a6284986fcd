import { write } from '../engine/writes.js';
import { Reject, type TabularFormat, yearCell } from '../engine/tabular-format.js';
import { IngestError } from '../engine/report.js';
import { isStateCode, STATE } from '../geography/codes.js';

const YEAR = 'as_of_year_jan1';
const LIMIT = 'income_limit_pct_fpl';
const REQUIRED = [YEAR, 'state', 'program', 'category', LIMIT];

/** Program and category keys as the file writes them (`medicaid`, `adult_19_64_expansion`, …). */
const KEY = /^[a-z0-9_]+$/;

// The file holds snapshots as of January 1; the API keys Medicaid data by fiscal year and quarter
// (StateMedicaid.fiscal_quarter 1–4). A January snapshot is calendar quarter 1 of its year.
const JANUARY_QUARTER = 1;

/**
 * Medicaid and separate-CHIP income limits by state, program and category, as % of FPL
 * (`medicaid/medicaid_chip_income_limits_pct_fpl.csv`: KFF State Health Facts, Medicaid.gov eligibility
 * levels). An empty limit means the category is not covered (stored as null); a combination without a
 * row is unknown. The file spans many years: each year in it is replaced. With `--year`, only that
 * year's rows are loaded.
 */
export const medicaidFormat: TabularFormat = {
  kind: 'medicaid',
  summary: 'Medicaid/CHIP income limits, % FPL (as_of_year_jan1,state,program,category,income_limit_pct_fpl)',
  owns: [{ table: 'medicaid_limits', scope: 'year' }],
  missingColumns: (header) => REQUIRED.filter((name) => !header.includes(name)),
  start({ seen, year: only, file }) {
    let kept = 0;
    return {
      // With --year the runner would refuse every other year's row; this multi-year file is filtered
      // instead, so `yearOf` is only consulted without --year.
      yearOf: only === undefined ? (cells) => yearCell(cells, YEAR) : undefined,
      row(cells, year) {
        const own = yearCell(cells, YEAR);
        if (own === undefined || Number.isNaN(own)) {
          return new Reject(`${YEAR} "${cells[YEAR] ?? ''}" is not a year`);
        }
        if (only !== undefined && own !== only) return [];
        const state = (cells.state ?? '').trim();
        const program = (cells.program ?? '').trim();
        const category = (cells.category ?? '').trim();
        if (!STATE.test(state) || !isStateCode(state)) {
          return new Reject(`state "${state}" is not a state code`);
        }
        if (!KEY.test(program)) return new Reject(`program "${program}" is not a program key`);
        if (!KEY.test(category)) return new Reject(`category "${category}" is not a category key`);
        const text = (cells[LIMIT] ?? '').trim();
        const pct = text === '' ? null : Number(text);
        if (pct !== null && !(Number.isFinite(pct) && pct >= 0 && pct <= 1000)) {
          return new Reject(`${LIMIT} "${text}" is not a percentage of FPL`);
        }
        const key = `medicaid:${year}:${state}:${program}:${category}`;
        if (seen.has(key)) return new Reject(`${state} ${program}/${category} for ${year} appears twice`);
        seen.add(key);
        kept += 1;
        return [
          write('medicaid_limits', {
            year,
            quarter: JANUARY_QUARTER,
            state,
            program,
            category,
            pct_fpl: pct,
          }),
        ];
      },
      finish() {
        // Without this, a --year the file does not cover would replace that year with nothing.
        if (only !== undefined && kept === 0) throw new IngestError(`${file}: no rows for ${only}`);
        return [];
      },
    };
  },
};
