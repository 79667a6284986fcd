import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { write } from '../engine/writes.js';
import { IngestError } from '../engine/report.js';
import type { IngestKind, KindLoad } from '../engine/kind.js';
import { DEFAULT_FETCH, type FetchOptions } from './fetch.js';
import { addDrug, finishFormularies } from './formularies.js';
import { createNetworkWriter } from './networks.js';
import { createPlanYears, type PlanYears } from './plan-years.js';
import { drugRecord, planRecord, providerRecord } from './records.js';
import { createSourceReader } from './source-reader.js';
import { resolveSources, isUrl, type FileKind, type Source } from './sources.js';

const TABLES = ['coverage_plans', 'plan_drugs', 'issuer_drugs', 'network_providers'] as const;

/** Deletes what the issuers of the load published for the years their plans.json gives. */
async function replaceIssuerYears(load: KindLoad, planYears: PlanYears): Promise<void> {
  for (const { year, issuerIds } of planYears.issuersByYear()) {
    await load.writer.startYear(year);
    for (const table of TABLES) {
      await load.writer.db
        .deleteFrom(table)
        .where('year', '=', year)
        .where('issuer_id', 'in', issuerIds)
        .execute();
    }
  }
}

/**
 * Loads an issuer's machine-readable files: plans.json first (whatever the order given), then the
 * formularies, then the provider networks. A load replaces, for each (year, issuer) its plans.json names,
 * that issuer's plan list, formularies and networks of that year; other issuers stay.
 */
async function loadIssuerFiles(inputs: string[], load: KindLoad, fetching: FetchOptions): Promise<void> {
  const sources = await resolveSources(inputs, fetching);
  const reader = createSourceReader(load);
  const ofKind = (kind: FileKind): Source[] => sources.filter((s) => s.kind === kind);

  const planYears = createPlanYears(load.year);
  let firstRefusal: string | undefined;
  for (const source of ofKind('plans')) {
    for await (const { position, value } of reader.elements(source)) {
      const plan = planRecord(value);
      if (typeof plan !== 'string') planYears.add(plan);
      else {
        firstRefusal ??= plan;
        load.reject(source.name, position, plan);
      }
    }
  }
  if (planYears.size === 0 && !reader.failedAny()) {
    const year = load.year === undefined ? '' : ` for ${load.year}`;
    const refused = firstRefusal === undefined ? '' : ` (refused: ${firstRefusal})`;
    throw new IngestError(`no plans${year} in the plans files${refused}; nothing was stored`);
  }
  await replaceIssuerYears(load, planYears);

  for (const source of ofKind('drugs')) {
    for await (const { position, value } of reader.elements(source)) {
      const drug = drugRecord(value);
      const refused = typeof drug === 'string' ? drug : await addDrug(load, planYears, drug);
      if (refused !== undefined) load.reject(source.name, position, refused);
    }
  }
  const networks = createNetworkWriter(load, planYears);
  for (const source of ofKind('providers')) {
    for await (const { position, value } of reader.elements(source)) {
      const provider = providerRecord(value);
      const refused = typeof provider === 'string' ? provider : await networks.add(provider);
      if (refused !== undefined) load.reject(source.name, position, refused);
    }
  }
  reader.throwIfFailed();
  await networks.finish();

  const drugs = await finishFormularies(load, planYears);
  const files = sources.map((s) => basename(s.name)).join(', ');
  for (const { plan, year, issuerId, providers } of planYears.all()) {
    await load.writer.add(
      write('coverage_plans', {
        year,
        plan_id: plan.planId,
        issuer_id: issuerId,
        marketing_name: plan.marketingName,
        drugs: drugs.get(`${year}:${plan.planId}`) ?? 0,
        providers,
        source: files,
      }),
    );
  }
}

/** `ingest mr-puf` with the fetch settings of its URLs (tests shorten the timeout). */
export function mrPufFormat(fetching: FetchOptions = DEFAULT_FETCH): IngestKind {
  return {
    kind: 'mr-puf',
    summary:
      "issuers' machine-readable files (CMS QHP schema): an index.json (local, or --index URL) or plans/drugs/providers JSON",
    owns: TABLES.map((table) => ({ table, scope: 'none' as const })),
    ignoreDuplicates: true,
    async size(inputs) {
      // What is read from disk (a URL's size is unknown until it is fetched): the data files given, and
      // those a local index lists.
      const local = inputs.filter((i) => !isUrl(i));
      let total = 0;
      for (const source of await resolveSources(local, fetching)) {
        total += await stat(source.name).then(
          (s) => s.size,
          () => 0,
        );
      }
      return total;
    },
    load: (inputs, load) => loadIssuerFiles(inputs, load, fetching),
  };
}
