import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { sql } from 'kysely';
import { write } from '../../plans/store/datasets.js';
import { IngestError } from '../report.js';
import type { StreamFormat, StreamLoad } from '../streamed.js';
import { DEFAULT_FETCH, FetchError, type FetchOptions } from './fetch.js';
import { jsonArrayElements, JsonShapeError } from './json-array.js';
import { drugRecord, planRecord, providerRecord, type PlanRecord } from './records.js';
import { resolveSources, isUrl, type Source } from './sources.js';

const TABLES = ['coverage_plans', 'plan_drugs', 'issuer_drugs', 'network_providers'] as const;

/** The plans of the load: each (plan, year) plans.json gives, with what the files list for it. */
interface PlanYear {
  plan: PlanRecord;
  year: number;
  drugs: number;
  providers: number;
}

/** Reads one source's elements; a remote source that fails is noted and skipped (reported at the end). */
async function* elementsOf(source: Source, load: StreamLoad, failed: string[]) {
  load.reading(source.name);
  try {
    const input = await source.open();
    input.on('data', (chunk: Buffer) => load.progress(chunk.length));
    for await (const element of jsonArrayElements(input, source.name)) {
      load.read();
      yield element;
    }
  } catch (error) {
    if (error instanceof FetchError) failed.push(error.message);
    else if (error instanceof JsonShapeError && source.remote) failed.push(error.message);
    else if (error instanceof JsonShapeError) throw new IngestError(`${error.message}; nothing was stored`);
    else if (source.remote) failed.push(`${source.name}: ${(error as Error).message}`);
    else throw error;
  }
}

/**
 * Loads an issuer's machine-readable files. A load replaces, for each (year, issuer) its plans.json
 * names, that issuer's formularies, networks and plan list of that year; other issuers stay.
 */
async function loadIssuerFiles(inputs: string[], load: StreamLoad, fetching: FetchOptions): Promise<void> {
  const sources = await resolveSources(inputs, fetching);
  const failed: string[] = [];
  const plans = new Map<string, PlanYear>();
  const key = (planId: string, year: number) => `${year}:${planId}`;
  const wanted = (year: number) => load.year === undefined || year === load.year;

  for (const source of sources.filter((s) => s.kind === 'plans')) {
    for await (const { position, value } of elementsOf(source, load, failed)) {
      const plan = planRecord(value);
      if (typeof plan === 'string') load.reject(source.name, position, plan);
      else
        for (const year of plan.years.filter(wanted))
          plans.set(key(plan.planId, year), { plan, year, drugs: 0, providers: 0 });
    }
  }
  if (plans.size === 0 && failed.length === 0) {
    throw new IngestError(
      `no plans${load.year === undefined ? '' : ` for ${load.year}`} in the plans files; nothing was stored`,
    );
  }

  // Replace what the issuers of the load published for those years.
  const issuerYears = new Map<number, Set<string>>();
  for (const { plan, year } of plans.values()) {
    issuerYears.set(year, (issuerYears.get(year) ?? new Set()).add(plan.planId.slice(0, 5)));
  }
  for (const [year, issuers] of issuerYears) {
    await load.writer.startYear(year);
    for (const table of TABLES) {
      await load.writer.db
        .deleteFrom(table)
        .where('year', '=', year)
        .where('issuer_id', 'in', [...issuers])
        .execute();
    }
  }

  const planIds = new Set([...plans.values()].map((p) => p.plan.planId));
  /**
   * The (plan, year) pairs of an entry that plans.json gives. Years it does not give the plan for are
   * left out (a network file may list last year too); a plan it does not give at all is refused.
   */
  const listedYears = (planId: string, years: number[]): PlanYear[] | string => {
    if (!planIds.has(planId)) return `plan ${planId} is not in the plans file`;
    return years.flatMap((y) => plans.get(key(planId, y)) ?? []);
  };

  for (const source of sources.filter((s) => s.kind === 'drugs')) {
    for await (const { position, value } of elementsOf(source, load, failed)) {
      const drug = drugRecord(value);
      if (typeof drug === 'string') {
        load.reject(source.name, position, drug);
        continue;
      }
      const rows = drug.plans.map((entry) => ({ entry, years: listedYears(entry.planId, entry.years) }));
      const refused = rows.find((r) => typeof r.years === 'string');
      if (refused) {
        load.reject(source.name, position, `drug ${drug.rxcui}: ${refused.years as string}`);
        continue;
      }
      for (const { entry, years } of rows) {
        for (const listed of years as PlanYear[]) {
          listed.drugs += 1;
          await load.writer.add(
            write('plan_drugs', {
              year: listed.year,
              plan_id: entry.planId,
              rxcui: drug.rxcui,
              issuer_id: entry.planId.slice(0, 5),
              drug_tier: entry.tier,
              prior_authorization: entry.priorAuthorization ? 1 : 0,
              step_therapy: entry.stepTherapy ? 1 : 0,
              quantity_limit: entry.quantityLimit ? 1 : 0,
            }),
          );
        }
      }
    }
  }

  for (const source of sources.filter((s) => s.kind === 'providers')) {
    for await (const { position, value } of elementsOf(source, load, failed)) {
      const provider = providerRecord(value);
      if (typeof provider === 'string') {
        load.reject(source.name, position, provider);
        continue;
      }
      // One row per plan and year, with every network tier the provider is listed in for it.
      const tiers = new Map<string, { listed: PlanYear; tiers: Set<string> }>();
      let refused: string | undefined;
      for (const entry of provider.plans) {
        const years = listedYears(entry.planId, entry.years);
        if (typeof years === 'string') {
          refused = years;
          break;
        }
        for (const listed of years) {
          const at = tiers.get(key(entry.planId, listed.year)) ?? { listed, tiers: new Set<string>() };
          if (entry.tier !== '') at.tiers.add(entry.tier);
          tiers.set(key(entry.planId, listed.year), at);
        }
      }
      if (refused) {
        load.reject(source.name, position, `provider ${provider.npi}: ${refused}`);
        continue;
      }
      // One row per issuer and year: its plans that list the provider, and the tiers of each.
      const rows = new Map<string, { year: number; issuer: string; plans: Record<string, string[]> }>();
      for (const { listed, tiers: names } of tiers.values()) {
        listed.providers += 1;
        const issuer = listed.plan.planId.slice(0, 5);
        const at = rows.get(`${listed.year}:${issuer}`) ?? { year: listed.year, issuer, plans: {} };
        at.plans[listed.plan.planId] = [...names];
        rows.set(`${listed.year}:${issuer}`, at);
      }
      for (const { year, issuer, plans: listedPlans } of rows.values()) {
        await load.writer.add(
          write('network_providers', {
            year,
            issuer_id: issuer,
            npi: provider.npi,
            type: provider.type,
            name: provider.name,
            gender: provider.gender,
            specialties: JSON.stringify(provider.specialties),
            languages: JSON.stringify(provider.languages),
            facility_types: JSON.stringify(provider.facilityTypes),
            accepting: provider.accepting,
            addresses: JSON.stringify(provider.addresses),
            plan_ids: Object.keys(listedPlans).join(','),
            network_tiers: JSON.stringify(listedPlans),
          }),
        );
      }
    }
  }

  if (failed.length > 0) {
    throw new IngestError(
      `${failed.length} file${failed.length > 1 ? 's' : ''} could not be read; nothing was stored:\n  ` +
        failed.join('\n  '),
    );
  }
  // Per issuer and drug, the plans listing it: what a coverage question reads.
  await load.writer.flush();
  for (const [year, issuers] of issuerYears) {
    await load.writer.db
      .insertInto('issuer_drugs')
      .columns(['year', 'issuer_id', 'rxcui', 'plan_ids'])
      .expression((eb) =>
        eb
          .selectFrom('plan_drugs')
          .select(['year', 'issuer_id', 'rxcui', sql<string>`string_agg(plan_id, ',')`.as('plan_ids')])
          .where('year', '=', year)
          .where('issuer_id', 'in', [...issuers])
          .groupBy(['year', 'issuer_id', 'rxcui']),
      )
      .execute();
  }
  const files = sources.map((s) => basename(s.name)).join(', ');
  for (const { plan, year, drugs, providers } of plans.values()) {
    await load.writer.add(
      write('coverage_plans', {
        year,
        plan_id: plan.planId,
        issuer_id: plan.planId.slice(0, 5),
        marketing_name: plan.marketingName,
        drugs,
        providers,
        source: files,
      }),
    );
  }
}

/** `ingest mr-puf` with the fetch settings of its URLs (tests shorten the timeout). */
export function mrPufFormat(fetching: FetchOptions = DEFAULT_FETCH): StreamFormat {
  return {
    kind: 'mr-puf',
    summary:
      "issuers' machine-readable files (CMS QHP schema): an index.json (local, or --index URL) or plans/drugs/providers JSON",
    owns: TABLES.map((table) => ({ table, scope: 'none' as const })),
    ignoreDuplicates: true,
    async size(inputs) {
      // What is read from disk; a URL's size is unknown until it is fetched.
      let total = 0;
      for (const input of inputs.filter((i) => !isUrl(i))) total += (await stat(input)).size;
      for (const source of await resolveSources(
        inputs.filter((i) => !isUrl(i)),
        fetching,
      )) {
        if (!inputs.includes(source.name))
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
