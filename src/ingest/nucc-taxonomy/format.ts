import { write } from '../engine/writes.js';
import { missingFrom, Reject, type TabularFormat } from '../engine/tabular-format.js';

/**
 * NUCC Health Care Provider Taxonomy code set CSV (`nucc_taxonomy_NNN.csv`: Code, Grouping,
 * Classification, Specialization, Definition, Notes, Display Name, Section): the names of the taxonomy
 * codes NPPES records carry, answered as providers' specialties. Older files have no Display Name: the
 * specialization (else the classification) stands for it. One vintage: a load replaces the list.
 */
export const nuccTaxonomyFormat: TabularFormat = {
  kind: 'nucc-taxonomy',
  summary: 'NUCC Health Care Provider Taxonomy CSV (Code, Classification, Specialization, Display Name)',
  owns: [{ table: 'provider_taxonomies', scope: 'all' }],
  yearOptional: true,
  missingColumns: (header) => missingFrom(header, ['Code', 'Classification', 'Specialization']),
  start() {
    return {
      row(cells) {
        const code = cells.Code!.trim();
        if (!/^[0-9A-Z]{9}X$/.test(code))
          return new Reject(`Code "${code}" is not a 10-character taxonomy code`);
        const classification = cells.Classification!.trim();
        const specialization = cells.Specialization!.trim();
        const display = cells['Display Name']?.trim() || specialization || classification;
        if (display === '') return new Reject(`taxonomy ${code} has no name`);
        return [
          write('provider_taxonomies', { code, classification, specialization, display_name: display }),
        ];
      },
    };
  },
};
