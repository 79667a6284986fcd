/** The CMS document's Coverage enum (definitions/Coverage). */
export type Coverage = 'Covered' | 'NotCovered' | 'DataNotProvided' | 'GenericCovered';

export interface DrugCoverage {
  rxcui: string;
  plan_id: string;
  coverage: Coverage;
  /** Present only with `GenericCovered` (research §1.7: the deployed service omits it otherwise). */
  generic_rxcui?: string;
}

export interface FormularyFacts {
  /** Plans whose issuer published a formulary for the year (a plan absent here has no data). */
  published: Set<string>;
  /** For each drug, the plans whose formularies list it. */
  listed: Map<string, Set<string>>;
  /** A brand's generic, for the drugs asked that have one. */
  genericOf: Map<string, string>;
}

const NONE: ReadonlySet<string> = new Set();

/** A drug as the formularies list it: the plans listing it, and those listing its generic. */
function listingsOf(rxcui: string, facts: FormularyFacts) {
  const generic = facts.genericOf.get(rxcui);
  const listing = facts.listed.get(rxcui) ?? NONE;
  const genericListing = (generic !== undefined && facts.listed.get(generic)) || NONE;
  return { generic, listing, genericListing };
}

/** How one plan stands with one drug (see `drugCoverage`). */
function standing(planId: string, facts: FormularyFacts, drug: ReturnType<typeof listingsOf>): Coverage {
  if (!facts.published.has(planId)) return 'DataNotProvided';
  if (drug.listing.has(planId)) return 'Covered';
  return drug.genericListing.has(planId) ? 'GenericCovered' : 'NotCovered';
}

/**
 * Whether each plan covers each drug, drug by drug: listed → Covered; not listed but its generic is →
 * GenericCovered (with the generic's RxCUI); the issuer published no formulary for the plan →
 * DataNotProvided (unknown is never reported as not covered); otherwise NotCovered.
 */
export function drugCoverage(rxcuis: string[], planIds: string[], facts: FormularyFacts): DrugCoverage[] {
  const answers: DrugCoverage[] = [];
  for (const rxcui of rxcuis) {
    const drug = listingsOf(rxcui, facts);
    for (const plan_id of planIds) {
      const coverage = standing(plan_id, facts, drug);
      answers.push(
        coverage === 'GenericCovered'
          ? { rxcui, plan_id, coverage, generic_rxcui: drug.generic! }
          : { rxcui, plan_id, coverage },
      );
    }
  }
  return answers;
}

/** `drugCoverage` as the JSON text of `{"coverage":[…]}`: ids are digits and capitals, nothing to escape. */
export function drugCoverageJson(rxcuis: string[], planIds: string[], facts: FormularyFacts): string {
  const parts: string[] = [];
  for (const rxcui of rxcuis) {
    const drug = listingsOf(rxcui, facts);
    const head = `{"rxcui":"${rxcui}","plan_id":"`;
    const viaGeneric = `","coverage":"GenericCovered","generic_rxcui":"${drug.generic}"}`;
    for (const planId of planIds) {
      const coverage = standing(planId, facts, drug);
      parts.push(
        head + planId + (coverage === 'GenericCovered' ? viaGeneric : `","coverage":"${coverage}"}`),
      );
    }
  }
  return `{"coverage":[${parts.join(',')}]}`;
}
