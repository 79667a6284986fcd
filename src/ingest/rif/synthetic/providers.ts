/**
 * The sample providers of the synthetic RIF claims: the NDJSON generator's directory (src/fhir/directory.ts,
 * SAMPLE organisations and clinicians with NPI-shaped numbers), with what a RIF claim also says of a provider —
 * state, ZIP+4, a CMS Certification Number for facilities, a tax number. BFD-shaped claims name providers by
 * NPI only, so the directory's NPIs are what links a claim to a sample provider. Pure.
 */
import {
  DIRECTORY,
  type Clinician,
  type DirectoryEntry,
  type ProviderKind,
} from '../../../fhir/directory.js';
import { CCN_STATE } from './codes.js';

/** A sample organisation as the RIF claims name it. */
export interface RifProvider {
  readonly npi: string;
  readonly name: string;
  readonly kind: ProviderKind;
  readonly state: string;
  /** Nine digits: the ZIP code and a sample +4. */
  readonly zip9: string;
  readonly city: string;
  /** Nine digits, a SAMPLE employer identification number derived from the NPI. */
  readonly taxNumber: string;
  /** CMS Certification Number (facilities) or a sample supplier number (DME), '' for the others. */
  readonly providerNumber: string;
}

/** The CCN's last four digits start in the range CMS assigns to each kind of facility. */
const CCN_RANGE: Partial<Record<ProviderKind, [number, number]>> = {
  institutional: [1, 879],
  snf: [5000, 6499],
  hha: [7000, 8499],
  hospice: [1500, 1799],
};

function providerNumber(kind: ProviderKind, state: string, npi: string): string {
  if (kind === 'dme') return `${npi.slice(0, 6)}0001`;
  const range = CCN_RANGE[kind];
  if (range === undefined) return '';
  const span = range[1] - range[0] + 1;
  const serial = range[0] + (Number(npi.slice(3, 9)) % span);
  return `${CCN_STATE[state] ?? '99'}${String(serial).padStart(4, '0')}`;
}

function build(): Readonly<Record<ProviderKind, readonly RifProvider[]>> {
  const byKind = {} as Record<ProviderKind, RifProvider[]>;
  let index = 0;
  for (const [kind, entries] of Object.entries(DIRECTORY.providers) as [ProviderKind, DirectoryEntry[]][]) {
    byKind[kind] = entries.map((entry) => {
      const place = DIRECTORY.places[index++]!;
      return {
        npi: entry.npi,
        name: entry.name,
        kind,
        state: place.state,
        zip9: `${place.postalCode}${entry.npi.slice(-4)}`,
        city: place.city,
        taxNumber: `9${entry.npi.slice(2)}`,
        providerNumber: providerNumber(kind, place.state, entry.npi),
      };
    });
  }
  return byKind;
}

/** The sample organisations by kind, in the directory's order. */
export const RIF_PROVIDERS = build();

/** The sample clinicians (NPI, name, NUCC taxonomy). */
export const RIF_CLINICIANS: readonly Clinician[] = DIRECTORY.clinicians;
