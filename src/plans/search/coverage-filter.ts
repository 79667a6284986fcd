import type { PlansDeps } from '../deps.js';
import type { DrugCoverage } from '../drugs/coverage.js';
import type { DrugService } from '../drugs/drug-service.js';
import { planError } from '../errors.js';
import type { CountyMarket } from '../market/county-market.js';
import type { ProviderCoverage } from '../providers/coverage.js';
import type { ProviderService } from '../providers/provider-service.js';
import type { MarketContext } from '../quote/priced-context.js';
import { perObjectAsync } from '../../shared/memo.js';
import { coverageVersion } from './coverage-version.js';

/** What a search's `filter.drugs` / `filter.providers` decide: which plans stay, and what each carries. */
export interface CoverageFilter {
  /** Plans that cover every drug (Covered or GenericCovered) and have every provider (Covered). */
  keep: Set<string>;
  /** The coverage blocks of each plan, by plan id: only those the question asked. */
  blocks: Map<string, CoverageBlocks>;
  /** The same as JSON text to add to a plan's object (`,"drug_coverage":[…]…`), by plan id. */
  fields: Map<string, string>;
}

export interface CoverageBlocks {
  drug_coverage?: DrugCoverage[];
  provider_coverage?: ProviderCoverage[];
}

/** RxCUIs or NPIs known nowhere (the caller answers 1014 or 1013). */
export interface UnknownIds {
  unknown: 'drugs' | 'providers';
  ids: string[];
}

const covers = (c: DrugCoverage | ProviderCoverage) =>
  c.coverage === 'Covered' || c.coverage === 'GenericCovered';

/**
 * Coverage of the asked drugs and providers by every plan of a market (`drug_coverage` /
 * `provider_coverage` blocks appear only when the filter asks: docs/decisions.md#plan-search-results).
 * Unknown RxCUIs or NPIs are returned instead, for the caller's 1014 / 1013.
 */
export async function coverageFilter(
  services: { drugs: DrugService; providers: ProviderService },
  year: number,
  asked: { drugs?: string[]; providers?: string[] },
  planIds: string[],
  version = '',
): Promise<CoverageFilter | UnknownIds | undefined> {
  const drugs = [...new Set(asked.drugs ?? [])];
  const npis = [...new Set(asked.providers ?? [])];
  if (drugs.length === 0 && npis.length === 0) return undefined;
  let drugAnswers: DrugCoverage[] = [];
  let providerAnswers: ProviderCoverage[] = [];
  if (drugs.length > 0) {
    const answer = await services.drugs.covered(year, drugs, planIds, version);
    if ('unknown' in answer) return { unknown: 'drugs', ids: answer.unknown };
    drugAnswers = answer.coverage;
  }
  if (npis.length > 0) {
    const answer = await services.providers.covered(year, npis, planIds);
    if ('unknown' in answer) return { unknown: 'providers', ids: answer.unknown };
    providerAnswers = answer.coverage;
  }
  const keep = new Set<string>();
  const blocks = new Map<string, CoverageBlocks>();
  const fields = new Map<string, string>();
  for (const planId of planIds) {
    const ofDrugs = drugAnswers.filter((c) => c.plan_id === planId);
    const ofProviders = providerAnswers.filter((c) => c.plan_id === planId);
    if (ofDrugs.every(covers) && ofProviders.every(covers)) keep.add(planId);
    const block: CoverageBlocks = {};
    let text = '';
    if (drugs.length > 0) {
      block.drug_coverage = ofDrugs;
      text += `,"drug_coverage":${JSON.stringify(ofDrugs)}`;
    }
    if (npis.length > 0) {
      block.provider_coverage = ofProviders;
      text += `,"provider_coverage":${JSON.stringify(ofProviders)}`;
    }
    blocks.set(planId, block);
    fields.set(planId, text);
  }
  return { keep, blocks, fields };
}

/** Coverage answers per county market and question (bounded: a question is a list of ids, not a household). */
const coverageCache = perObjectAsync<CountyMarket, string, CoverageFilter | UnknownIds | undefined>(256);

/** The coverage of `filter.drugs` / `filter.providers` by the market's plans; 1014 / 1013 for unknown ids. */
export async function coverageOf(
  deps: PlansDeps,
  context: MarketContext,
  body: { filter?: { drugs?: string[]; providers?: string[] } },
): Promise<CoverageFilter | undefined> {
  const drugs = [...new Set(body.filter?.drugs ?? [])].sort();
  const providers = [...new Set(body.filter?.providers ?? [])].sort();
  if (drugs.length === 0 && providers.length === 0) return undefined;
  // The same question of the same market is answered once while the data it comes from stays.
  const version = await coverageVersion(deps);
  const found = await coverageCache(context.market, `${context.year}|${version}|${drugs}|${providers}`, () =>
    coverageFilter(
      deps,
      context.year,
      { drugs, providers },
      context.market.plans.map((p) => p.id),
      version,
    ),
  );
  if (found && 'unknown' in found) {
    const ids = found.ids.join(', ');
    throw found.unknown === 'drugs'
      ? planError(1014, `no drug with RxCUI ${ids} (RxNorm or ${context.year} formularies)`)
      : planError(1013, `no provider with NPI ${ids} (directory or ${context.year} networks)`);
  }
  return found;
}
