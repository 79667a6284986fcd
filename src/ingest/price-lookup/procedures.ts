import { write } from '../engine/writes.js';
import { Reject, missingFrom, type TabularFormat } from '../engine/tabular-format.js';
import { PROCEDURE_CODE } from './amounts.js';

const COLUMNS = ['code', 'description', 'frequency'];

/**
 * The procedures the price lookup offers, with their descriptions and how often each is performed: a CSV
 * `code,description,frequency` an operator provides (the PPL's list of about 4,000 procedures is not
 * published; CPT descriptions are the AMA's, loaded under the operator's own license). One list: a load
 * replaces it.
 */
export const pplProceduresFormat: TabularFormat = {
  kind: 'ppl-procedures',
  summary: 'procedure list for the price lookup: CSV code,description,frequency (operator-provided)',
  owns: [{ table: 'ppl_procedures', scope: 'all' }],
  yearOptional: true,
  missingColumns: (header) => missingFrom(header, COLUMNS),
  start({ seen }) {
    return {
      row(cells) {
        const code = (cells.code ?? '').trim().toUpperCase();
        if (!PROCEDURE_CODE.test(code))
          return new Reject(`code "${code}" is not a 5-character HCPCS/CPT code`);
        if (seen.has(code)) return new Reject(`code ${code} appears twice`);
        seen.add(code);
        const description = (cells.description ?? '').trim();
        if (description === '') return new Reject(`code ${code} has no description`);
        const frequency = (cells.frequency ?? '').trim();
        if (!/^\d{1,12}$/.test(frequency))
          return new Reject(`frequency "${frequency}" is not a whole number`);
        return [write('ppl_procedures', { code, description, frequency: Number(frequency) })];
      },
    };
  },
};
