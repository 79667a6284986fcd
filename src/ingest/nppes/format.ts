import { write, type Write } from '../engine/writes.js';
import { wordsOf } from '../../plans/drugs/words.js';
import { missingFrom, Reject, type TabularFormat } from '../engine/tabular-format.js';

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
  columns: [
    ...Object.values(C),
    ...GENDER_COLUMNS,
    ...TAXONOMY_SLOTS.flatMap((slot) => [slot.code, slot.primary]),
  ],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start() {
    let gender: string | undefined;
    let slots: typeof TAXONOMY_SLOTS | undefined;
    // Name words are written a batch at a time in ZIP order: inserted grouped by the first column of the
    // (zip, term, npi) index they fill, they touch far fewer pages than in file order (1,000,000 rows: 5.9 s
    // of inserts instead of 9.2 s). Grouping by ZIP alone is as good as a full sort there, and a counting
    // sort over the 100,000 ZIP codes costs a fifth of a comparison sort.
    // The batch is held as plain arrays, not objects per word: objects that live for 30,000 rows are copied
    // by young-generation collections and then promoted (1,000,000 rows: 15.9–16.3 s instead of 16.2–17.2 s).
    let words: string[] = [];
    /** For each word: its provider (an index into the three arrays below) and its ZIP as a number. */
    let owners: number[] = [];
    let zips: number[] = [];
    let ownerZip: string[] = [];
    let ownerNpi: string[] = [];
    let ownerType: string[] = [];
    const firstOfZip = new Int32Array(100_001);
    const sortedTerms = () => {
      firstOfZip.fill(0);
      for (const zip of zips) firstOfZip[zip + 1]! += 1;
      for (let z = 1; z < firstOfZip.length; z++) firstOfZip[z]! += firstOfZip[z - 1]!;
      const batch = new Array<Write>(words.length);
      for (let i = 0; i < words.length; i++) {
        const owner = owners[i]!;
        batch[firstOfZip[zips[i]!]!++] = write('provider_terms', {
          zip: ownerZip[owner]!,
          term: words[i]!,
          npi: ownerNpi[owner]!,
          type: ownerType[owner]!,
        });
      }
      words = [];
      owners = [];
      zips = [];
      ownerZip = [];
      ownerNpi = [];
      ownerType = [];
      return batch;
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
        const owner = ownerNpi.push(npi) - 1;
        ownerZip.push(zip);
        ownerType.push(type);
        const zipOrder = Number(zip);
        for (const term of new Set(wordsOf(base))) {
          if (term.length < 2) continue;
          words.push(term);
          owners.push(owner);
          zips.push(zipOrder);
        }
        if (words.length >= TERM_BATCH) for (const w of sortedTerms()) writes.push(w);
        return writes;
      },
    };
  },
};
