import { missingFrom, Reject, type TabularFormat } from '../engine/tabular-format.js';
import { write } from '../engine/writes.js';
import { C, GENDER_COLUMNS, READ_COLUMNS, REQUIRED, TAXONOMY_SLOTS } from './columns.js';
import { createTermBatch } from './terms.js';

const NPI = /^\d{10}$/;
const ZIP_CODE = /^\d{5}(\d{4})?$/;

const GENDERS: Record<string, string> = { M: 'Male', F: 'Female' };

/** MM/DD/YYYY as YYYYMMDD, comparable as text ('' when empty). */
const dateKey = (value: string) =>
  value.length === 10 ? value.slice(6) + value.slice(0, 2) + value.slice(3, 5) : '';

/** The non-empty parts, joined by spaces. */
function joined(...parts: string[]): string {
  let out = '';
  for (const part of parts) if (part !== '') out = out === '' ? part : `${out} ${part}`;
  return out;
}

/**
 * NPPES NPI registry, monthly full replacement CSV: every active provider's name, sex, taxonomies
 * (primary first) and practice location, and the name words by ZIP that provider search reads. Records
 * of deactivated NPIs (no entity type, or a deactivation after the last reactivation) are passed over.
 * One vintage: a load replaces the directory.
 */
export const nppesFormat: TabularFormat = {
  kind: 'nppes',
  summary: 'NPPES NPI registry full replacement CSV (npidata_pfile_…csv): the provider directory',
  owns: [
    { table: 'providers', scope: 'all' },
    { table: 'provider_terms', scope: 'all' },
  ],
  yearOptional: true,
  threadModule: import.meta.url,
  columns: READ_COLUMNS,
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start() {
    let gender: string | undefined;
    let slots: typeof TAXONOMY_SLOTS | undefined;
    const terms = createTermBatch();
    return {
      finish: terms.take,
      row(cells) {
        const npi = cells[C.npi]!.trim();
        if (!NPI.test(npi)) return new Reject(`NPI "${npi}" is not 10 digits`);
        const entity = cells[C.entity]!.trim();
        const deactivated = dateKey(cells[C.deactivated]?.trim() ?? '');
        if (
          entity === '' ||
          (deactivated !== '' && dateKey(cells[C.reactivated]?.trim() ?? '') <= deactivated)
        ) {
          return [];
        }
        if (entity !== '1' && entity !== '2') return new Reject(`Entity Type Code "${entity}" is not 1 or 2`);
        const individual = entity === '1';
        const base = individual
          ? joined(cells[C.first]!.trim(), cells[C.middle]?.trim() ?? '', cells[C.last]!.trim())
          : cells[C.organization]!.trim();
        if (base === '')
          return new Reject(individual ? 'the provider has no name' : 'the organization has no name');
        const credential = individual ? (cells[C.credential]?.trim() ?? '') : '';
        const name =
          joined(base, cells[C.suffix]?.trim() ?? '') + (credential !== '' ? `, ${credential}` : '');
        const postal = cells[C.postal]!.trim();
        if (!ZIP_CODE.test(postal)) return new Reject(`practice postal code "${postal}" is not a ZIP code`);
        const zip = postal.slice(0, 5);
        gender ??= GENDER_COLUMNS.find((c) => c in cells) ?? '';
        slots ??= TAXONOMY_SLOTS.filter((slot) => slot.code in cells);
        // Primary first, then the others in slot order, each once (a code may fill two slots).
        const codes: string[] = [];
        for (const slot of slots) {
          const code = cells[slot.code]!.trim();
          if (code === '' || codes.includes(code)) continue;
          if (cells[slot.primary]?.trim() === 'Y') codes.unshift(code);
          else codes.push(code);
        }
        const type = individual ? 'Individual' : 'Facility';
        const writes = [
          write('providers', {
            npi,
            type,
            name,
            gender: (gender && GENDERS[cells[gender]!.trim()]) || null,
            taxonomy: codes[0] ?? '',
            taxonomies: JSON.stringify(codes),
            street_1: cells[C.street1]!.trim(),
            street_2: cells[C.street2]?.trim() ?? '',
            city: cells[C.city]!.trim(),
            state: cells[C.state]!.trim(),
            zip,
            phone: cells[C.phone]?.trim() ?? '',
          }),
        ];
        terms.add(npi, zip, type, base);
        if (terms.full()) for (const w of terms.take()) writes.push(w);
        return writes;
      },
    };
  },
};
