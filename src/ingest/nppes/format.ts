import { write } from '../../plans/store/datasets.js';
import { wordsOf } from '../../plans/drugs/words.js';
import { missingFrom, Reject, type IngestFormat } from '../plan-data/format.js';

/** Columns of the NPPES full replacement file (`npidata_pfile_…csv`, 330 columns) that we read. */
const C = {
  npi: 'NPI',
  entity: 'Entity Type Code',
  organization: 'Provider Organization Name (Legal Business Name)',
  last: 'Provider Last Name (Legal Name)',
  first: 'Provider First Name',
  middle: 'Provider Middle Name',
  suffix: 'Provider Name Suffix Text',
  credential: 'Provider Credential Text',
  street1: 'Provider First Line Business Practice Location Address',
  street2: 'Provider Second Line Business Practice Location Address',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
  postal: 'Provider Business Practice Location Address Postal Code',
  phone: 'Provider Business Practice Location Address Telephone Number',
  deactivated: 'NPI Deactivation Date',
  reactivated: 'NPI Reactivation Date',
} as const;
/** The sex column was "Provider Gender Code" until NPPES renamed it "Provider Sex Code". */
const GENDER_COLUMNS = ['Provider Gender Code', 'Provider Sex Code'];
const taxonomyColumn = (n: number) => `Healthcare Provider Taxonomy Code_${n}`;
const primaryColumn = (n: number) => `Healthcare Provider Primary Taxonomy Switch_${n}`;
/** The 15 taxonomy slots' column names, made once: a name built per row is hashed again on every lookup. */
const TAXONOMY_SLOTS = Array.from({ length: 15 }, (_, i) => ({
  code: taxonomyColumn(i + 1),
  primary: primaryColumn(i + 1),
}));
const NPI = /^\d{10}$/;
const ZIP_CODE = /^\d{5}(\d{4})?$/;

const REQUIRED = [
  C.npi,
  C.entity,
  C.organization,
  C.last,
  C.first,
  C.street1,
  C.city,
  C.state,
  C.postal,
  taxonomyColumn(1),
  primaryColumn(1),
];

const GENDERS: Record<string, string> = { M: 'Male', F: 'Female' };
const TERM_BATCH = 100_000;

/** MM/DD/YYYY as YYYYMMDD, comparable as text ('' when empty). */
const dateKey = (value: string) =>
  value.length === 10 ? value.slice(6) + value.slice(0, 2) + value.slice(3, 5) : '';

const joined = (parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join(' ');

/**
 * NPPES NPI registry, monthly full replacement CSV: every active provider's name, sex, taxonomies
 * (primary first) and practice location, and the name words by ZIP that provider search reads. Records
 * of deactivated NPIs (no entity type, or a deactivation after the last reactivation) are passed over.
 * One vintage: a load replaces the directory.
 */
export const nppesFormat: IngestFormat = {
  kind: 'nppes',
  summary: 'NPPES NPI registry full replacement CSV (npidata_pfile_…csv): the provider directory',
  owns: [
    { table: 'providers', scope: 'all' },
    { table: 'provider_terms', scope: 'all' },
  ],
  yearOptional: true,
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start() {
    let gender: string | undefined;
    let slots: typeof TAXONOMY_SLOTS | undefined;
    // Name words are written in key order, a batch at a time: inserted in the order of the (zip, term, npi)
    // index they fill far fewer pages than in file order (a 200,000-row file loads in 3.4 s, not 4.3 s).
    let terms: { zip: string; term: string; npi: string; type: string }[] = [];
    const sortedTerms = () => {
      const batch = terms.sort((a, b) =>
        a.zip !== b.zip
          ? a.zip < b.zip
            ? -1
            : 1
          : a.term !== b.term
            ? a.term < b.term
              ? -1
              : 1
            : a.npi < b.npi
              ? -1
              : 1,
      );
      terms = [];
      return batch.map((t) => write('provider_terms', t));
    };
    return {
      finish: sortedTerms,
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
        const person = [cells[C.first]?.trim(), cells[C.middle]?.trim(), cells[C.last]?.trim()];
        const base = individual ? joined(person) : cells[C.organization]!.trim();
        if (base === '')
          return new Reject(individual ? 'the provider has no name' : 'the organization has no name');
        const suffix = cells[C.suffix]?.trim();
        const credential = cells[C.credential]?.trim();
        const name = joined([base, suffix]) + (individual && credential ? `, ${credential}` : '');
        const postal = cells[C.postal]!.trim();
        if (!ZIP_CODE.test(postal)) return new Reject(`practice postal code "${postal}" is not a ZIP code`);
        const zip = postal.slice(0, 5);
        gender ??= GENDER_COLUMNS.find((c) => c in cells) ?? '';
        slots ??= TAXONOMY_SLOTS.filter((slot) => slot.code in cells);
        const codes: string[] = [];
        for (const slot of slots) {
          const code = cells[slot.code]!.trim();
          if (code === '') continue;
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
            taxonomies: JSON.stringify([...new Set(codes)]),
            street_1: cells[C.street1]!.trim(),
            street_2: cells[C.street2]?.trim() ?? '',
            city: cells[C.city]!.trim(),
            state: cells[C.state]!.trim(),
            zip,
            phone: cells[C.phone]?.trim() ?? '',
          }),
        ];
        for (const term of new Set(wordsOf(base))) if (term.length >= 2) terms.push({ zip, term, npi, type });
        return terms.length >= TERM_BATCH ? [...writes, ...sortedTerms()] : writes;
      },
    };
  },
};
