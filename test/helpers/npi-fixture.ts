import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvText } from './csv-fixture.js';
import { sharedData } from './shared-data.js';

/** A result of the NPPES NPI Registry API (v2.1), as recorded in `../shared/data/providers/`. */
interface ApiResult {
  number: number | string;
  enumeration_type: 'NPI-1' | 'NPI-2';
  basic: Record<string, string | undefined>;
  addresses: Record<string, string | undefined>[];
  taxonomies: { code: string; desc: string; primary: boolean }[];
}

/** Every distinct provider of the recorded API answers (real NPPES records), by NPI. */
export function registryRecords(): ApiResult[] {
  const dir = sharedData('providers/npi_registry_api_samples');
  const byNpi = new Map<string, ApiResult>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const answer = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { results?: ApiResult[] };
    for (const result of answer.results ?? []) byNpi.set(String(result.number), result);
  }
  return [...byNpi.values()];
}

/**
 * The records in the layout of the NPPES full replacement file (its column names; the API's values as
 * published): what `ingest nppes` reads.
 */
export function nppesCsv(records = registryRecords()): string {
  const rows = records.map((r) => {
    const location = r.addresses.find((a) => a.address_purpose === 'LOCATION') ?? {};
    const row: Record<string, string> = {
      NPI: String(r.number),
      'Entity Type Code': r.enumeration_type === 'NPI-1' ? '1' : '2',
      'Provider Organization Name (Legal Business Name)': r.basic.organization_name ?? '',
      'Provider Last Name (Legal Name)': r.basic.last_name ?? '',
      'Provider First Name': r.basic.first_name ?? '',
      'Provider Middle Name': r.basic.middle_name ?? '',
      'Provider Name Suffix Text': r.basic.name_suffix ?? '',
      'Provider Credential Text': r.basic.credential ?? '',
      'Provider First Line Business Practice Location Address': location.address_1 ?? '',
      'Provider Second Line Business Practice Location Address': location.address_2 ?? '',
      'Provider Business Practice Location Address City Name': location.city ?? '',
      'Provider Business Practice Location Address State Name': location.state ?? '',
      'Provider Business Practice Location Address Postal Code': location.postal_code ?? '',
      'Provider Business Practice Location Address Telephone Number': location.telephone_number ?? '',
      'Provider Gender Code': r.basic.gender ?? r.basic.sex ?? '',
      'NPI Deactivation Date': '',
      'NPI Reactivation Date': '',
    };
    for (let n = 1; n <= 15; n++) {
      const taxonomy = r.taxonomies[n - 1];
      row[`Healthcare Provider Taxonomy Code_${n}`] = taxonomy?.code ?? '';
      row[`Healthcare Provider Primary Taxonomy Switch_${n}`] = taxonomy
        ? taxonomy.primary
          ? 'Y'
          : 'N'
        : '';
    }
    return row;
  });
  return csvText(rows);
}

/** The taxonomy codes of the records with the names the registry gives them, in the NUCC CSV layout. */
export function nuccCsv(records = registryRecords()): string {
  const names = new Map<string, string>();
  for (const r of records) for (const t of r.taxonomies) names.set(t.code, t.desc);
  return csvText(
    [...names].map(([code, desc]) => ({
      Code: code,
      Grouping: '',
      Classification: desc,
      Specialization: '',
      Definition: '',
      Notes: '',
      'Display Name': desc,
      Section: 'Individual',
    })),
  );
}
