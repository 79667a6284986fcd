/** The CMS document's Coverage enum (definitions/Coverage). */
export type Coverage = 'Covered' | 'NotCovered' | 'DataNotProvided' | 'GenericCovered';

export interface DrugCoverage {
  rxcui: string;
  plan_id: string;
  coverage: Coverage;
  /**
   * Present only with `GenericCovered`: the deployed service omits it otherwise
   * (docs/decisions.md#drug-coverage).
   */
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

/** How one plan (`published`: its issuer published a formulary) stands with one drug (see `drugCoverage`). */
function standing(planId: string, published: boolean, drug: ReturnType<typeof listingsOf>): Coverage {
  if (!published) return 'DataNotProvided';
  if (drug.listing.has(planId)) return 'Covered';
  return drug.genericListing.has(planId) ? 'GenericCovered' : 'NotCovered';
}

/**
 * `ids` as flat strings. Ids cut from a comma-joined list (a query parameter, a stored column) are slices
 * of it, and V8 compares a slice with another string more slowly than two flat strings, which showed in the
 * thousand set lookups of a 10 × 100 answer (figures in bench/RESULTS.md). JSON's parser makes every string
 * anew.
 */
export const flatIds = (ids: string[]): string[] => JSON.parse(JSON.stringify(ids)) as string[];

/** Whether each plan's issuer published a formulary, looked up once per plan rather than once per drug. */
const publishedOf = (planIds: string[], facts: FormularyFacts) =>
  planIds.map((id) => facts.published.has(id));

/**
 * Whether each plan covers each drug, drug by drug: listed → Covered; not listed but its generic is →
 * GenericCovered (with the generic's RxCUI); the issuer published no formulary for the plan →
 * DataNotProvided (unknown is never reported as not covered); otherwise NotCovered.
 */
export function drugCoverage(rxcuis: string[], asked: string[], facts: FormularyFacts): DrugCoverage[] {
  const planIds = flatIds(asked);
  const published = publishedOf(planIds, facts);
  const answers: DrugCoverage[] = [];
  for (const rxcui of rxcuis) {
    const drug = listingsOf(rxcui, facts);
    planIds.forEach((plan_id, i) => {
      const coverage = standing(plan_id, published[i]!, drug);
      answers.push(
        coverage === 'GenericCovered'
          ? { rxcui, plan_id, coverage, generic_rxcui: drug.generic! }
          : { rxcui, plan_id, coverage },
      );
    });
  }
  return answers;
}

/** The end of an answer's entry after its plan id, by coverage (with the generic's RxCUI for GenericCovered). */
const ENDINGS: Record<Exclude<Coverage, 'GenericCovered'>, string> = {
  Covered: '","coverage":"Covered"}',
  NotCovered: '","coverage":"NotCovered"}',
  DataNotProvided: '","coverage":"DataNotProvided"}',
};

/**
 * `drugCoverage` as the JSON text of `{"coverage":[…]}`: ids are digits and capitals, nothing to escape.
 * The answer for 10 drugs × 100 plans is 1,000 entries; it is made without an object per entry.
 */
export function drugCoverageJson(rxcuis: string[], asked: string[], facts: FormularyFacts): string {
  const planIds = flatIds(asked);
  const published = publishedOf(planIds, facts);
  const parts: string[] = [];
  for (const rxcui of rxcuis) {
    const drug = listingsOf(rxcui, facts);
    const head = `{"rxcui":"${rxcui}","plan_id":"`;
    const viaGeneric = `","coverage":"GenericCovered","generic_rxcui":"${drug.generic}"}`;
    for (let i = 0; i < planIds.length; i++) {
      const planId = planIds[i]!;
      const coverage = standing(planId, published[i]!, drug);
      parts.push(head + planId + (coverage === 'GenericCovered' ? viaGeneric : ENDINGS[coverage]));
    }
  }
  return `{"coverage":[${parts.join(',')}]}`;
}
