import type { PlansDeps } from '../deps.js';

/** The datasets coverage answers come from. */
const COVERAGE_KINDS = new Set(['rxnorm', 'mr-puf', 'nppes']);

/**
 * A name for the loaded coverage data (each dataset's kind, year and load time): what is kept in memory
 * for coverage answers is kept while it stays the same (another instance's load shows within seconds).
 */
export async function coverageVersion(deps: PlansDeps): Promise<string> {
  return (await deps.samples.datasets())
    .filter((d) => COVERAGE_KINDS.has(d.kind))
    .map((d) => `${d.kind}:${d.year}:${d.loadedAt}`)
    .join(',');
}
