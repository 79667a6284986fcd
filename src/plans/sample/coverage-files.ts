import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RXNORM_CONCEPTS } from '../tables/rxnorm-concepts.js';
import { NPPES_COLUMNS } from '../tables/nppes-columns.js';
import { rrfAtom, rrfRelation } from '../tables/rrf-lines.js';
import { NUCC_COLUMNS, SAMPLE_TAXONOMY_CODES } from '../tables/taxonomy-codes.js';
import { buildSampleCoverage, type SampleCoverage } from './coverage.js';
import type { SampleMarket } from './market.js';

/** RxNorm's dose form concept "Oral Tablet" (TTY DF), which the names ending so carry. */
const ORAL_TABLET = { rxcui: '317541', name: 'Oral Tablet' };

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

/** RXNCONSO and RXNREL in the RRF layout for the project's RxNorm concepts; returns their directory. */
async function writeRxnorm(dir: string): Promise<string> {
  const path = join(dir, 'rxnorm-rrf');
  await mkdir(path, { recursive: true });
  const conso = RXNORM_CONCEPTS.map((c, i) => rrfAtom(c.rxcui, c.tty, c.name, i + 1));
  conso.push(rrfAtom(ORAL_TABLET.rxcui, 'DF', ORAL_TABLET.name, 0));
  const rel = RXNORM_CONCEPTS.flatMap((c) => [
    ...(c.generic ? [rrfRelation(c.generic, 'tradename_of', c.rxcui)] : []),
    ...(/ Oral Tablet( \[[^\]]+\])?$/.test(c.name) && !/Extended Release/.test(c.name)
      ? [rrfRelation(ORAL_TABLET.rxcui, 'dose_form_of', c.rxcui)]
      : []),
  ]);
  await writeFile(join(path, 'RXNCONSO.RRF'), conso.join('\n') + '\n');
  await writeFile(join(path, 'RXNREL.RRF'), rel.join('\n') + '\n');
  return path;
}

async function writeNucc(dir: string): Promise<string> {
  const path = join(dir, 'nucc_taxonomy_sample.csv');
  const header = [...NUCC_COLUMNS];
  const rows = SAMPLE_TAXONOMY_CODES.map((t) => [
    t.code,
    '',
    t.classification,
    t.specialization,
    '',
    '',
    t.displayName,
    t.individual ? 'Individual' : 'Non-Individual',
  ]);
  await writeFile(path, csv([header, ...rows]));
  return path;
}

/** The sample providers in the NPPES full replacement file's layout (the columns `ingest nppes` reads). */
async function writeNppes(dir: string, coverage: SampleCoverage): Promise<string> {
  const path = join(dir, 'npidata_pfile_sample.csv');
  const rows = coverage.providers.map((p) => [
    p.npi,
    p.individual ? '1' : '2',
    p.organization,
    p.last.toUpperCase(),
    p.first.toUpperCase(),
    '',
    '',
    p.credential,
    p.street.toUpperCase(),
    '',
    p.city,
    'TX',
    p.zip,
    p.phone,
    p.gender,
    p.taxonomy,
    'Y',
    '',
    '',
  ]);
  await writeFile(path, csv([[...NPPES_COLUMNS], ...rows]));
  return path;
}

/** The issuers' machine-readable files (CMS QHP schema): an index and its plans, drugs and providers. */
async function writeMrPuf(dir: string, market: SampleMarket, coverage: SampleCoverage): Promise<string> {
  const path = join(dir, 'mr-puf');
  await mkdir(path, { recursive: true });
  const years = [market.year];
  const planEntry = (planId: string) => ({ plan_id_type: 'HIOS-PLAN-ID', plan_id: planId });
  const plans = market.plans.map((p) => ({
    ...planEntry(p.id),
    marketing_name: p.name,
    summary_url: `https://plan-${p.issuer.spec.letter.toLowerCase()}.sample.example/${p.id}`,
    plan_contact: `plans@plan-${p.issuer.spec.letter.toLowerCase()}.sample.example`,
    years,
    last_updated_on: `${market.year - 1}-10-15`,
  }));
  const plansOf = (issuer: string) => market.plans.filter((p) => p.issuer.spec.id === issuer);
  const byDrug = new Map<string, Record<string, unknown>[]>();
  for (const [issuer, listings] of coverage.formularies) {
    for (const listing of listings) {
      const entries = byDrug.get(listing.rxcui) ?? [];
      for (const plan of plansOf(issuer)) {
        entries.push({
          ...planEntry(plan.id),
          drug_tier: listing.tier,
          prior_authorization: listing.priorAuthorization,
          step_therapy: listing.stepTherapy,
          quantity_limit: listing.quantityLimit,
          years,
        });
      }
      byDrug.set(listing.rxcui, entries);
    }
  }
  const names = new Map(RXNORM_CONCEPTS.map((c) => [c.rxcui, c.name]));
  const drugs = [...byDrug].map(([rxcui, entries]) => ({
    rxnorm_id: rxcui,
    drug_name: names.get(rxcui),
    plans: entries,
  }));
  const providers = coverage.providers.flatMap((p) => {
    const memberships = [...coverage.networks].flatMap(([issuer, members]) => {
      const member = members.find((m) => m.npi === p.npi);
      return member ? [{ issuer, accepting: member.accepting }] : [];
    });
    if (memberships.length === 0) return [];
    const taxonomy = SAMPLE_TAXONOMY_CODES.find((t) => t.code === p.taxonomy)!;
    return [
      {
        npi: p.npi,
        type: p.individual ? 'INDIVIDUAL' : 'FACILITY',
        ...(p.individual
          ? {
              name: { first: p.first, last: p.last },
              specialty: [taxonomy.displayName],
              languages: ['English'],
            }
          : { facility_name: p.organization, facility_type: ['Clinic'] }),
        addresses: [{ address: p.street, city: p.city, state: 'TX', zip: p.zip, phone: p.phone }],
        accepting: memberships.every((m) => m.accepting === 'accepting') ? 'accepting' : 'not accepting',
        plans: memberships.flatMap(({ issuer }) =>
          plansOf(issuer).map((plan) => ({ ...planEntry(plan.id), network_tier: 'PREFERRED', years })),
        ),
        last_updated_on: `${market.year - 1}-10-15`,
      },
    ];
  });
  const base = 'https://mr-puf.sample.example';
  await writeFile(
    join(path, 'index.json'),
    JSON.stringify({
      provider_urls: [`${base}/providers.json`],
      formulary_urls: [`${base}/drugs.json`],
      plan_urls: [`${base}/plans.json`],
    }),
  );
  await writeFile(join(path, 'plans.json'), JSON.stringify(plans));
  await writeFile(join(path, 'drugs.json'), JSON.stringify(drugs));
  await writeFile(join(path, 'providers.json'), JSON.stringify(providers));
  return join(path, 'index.json');
}

/** The sample's drug, provider and coverage files, each in its published layout, in load order. */
export async function writeSampleCoverage(
  dir: string,
  market: SampleMarket,
): Promise<{ kind: string; path: string; rows: number }[]> {
  const coverage = buildSampleCoverage(market);
  return [
    { kind: 'rxnorm', path: await writeRxnorm(dir), rows: RXNORM_CONCEPTS.length },
    { kind: 'nucc-taxonomy', path: await writeNucc(dir), rows: SAMPLE_TAXONOMY_CODES.length },
    { kind: 'nppes', path: await writeNppes(dir, coverage), rows: coverage.providers.length },
    { kind: 'mr-puf', path: await writeMrPuf(dir, market, coverage), rows: market.plans.length },
  ];
}
