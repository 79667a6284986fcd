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

/**
 * Whether each plan covers each drug, drug by drug: listed → Covered; not listed but its generic is →
 * GenericCovered (with the generic's RxCUI); the issuer published no formulary for the plan →
 * DataNotProvided (unknown is never reported as not covered); otherwise NotCovered.
 */
export function drugCoverage(rxcuis: string[], planIds: string[], facts: FormularyFacts): DrugCoverage[] {
  const answers: DrugCoverage[] = [];
  const none = new Set<string>();
  for (const rxcui of rxcuis) {
    const generic = facts.genericOf.get(rxcui);
    const listing = facts.listed.get(rxcui) ?? none;
    const genericListing = (generic !== undefined && facts.listed.get(generic)) || none;
    for (const plan_id of planIds) {
      if (!facts.published.has(plan_id)) answers.push({ rxcui, plan_id, coverage: 'DataNotProvided' });
      else if (listing.has(plan_id)) answers.push({ rxcui, plan_id, coverage: 'Covered' });
      else if (genericListing.has(plan_id))
        answers.push({ rxcui, plan_id, coverage: 'GenericCovered', generic_rxcui: generic });
      else answers.push({ rxcui, plan_id, coverage: 'NotCovered' });
    }
  }
  return answers;
}

/** `drugCoverage` as the JSON text of `{"coverage":[…]}`: ids are digits and capitals, nothing to escape. */
export function drugCoverageJson(rxcuis: string[], planIds: string[], facts: FormularyFacts): string {
  const parts: string[] = [];
  const none = new Set<string>();
  for (const rxcui of rxcuis) {
    const generic = facts.genericOf.get(rxcui);
    const listing = facts.listed.get(rxcui) ?? none;
    const genericListing = (generic !== undefined && facts.listed.get(generic)) || none;
    const head = `{"rxcui":"${rxcui}","plan_id":"`;
    const viaGeneric = `","coverage":"GenericCovered","generic_rxcui":"${generic}"}`;
    for (const planId of planIds) {
      const tail = !facts.published.has(planId)
        ? '","coverage":"DataNotProvided"}'
        : listing.has(planId)
          ? '","coverage":"Covered"}'
          : genericListing.has(planId)
            ? viaGeneric
            : '","coverage":"NotCovered"}';
      parts.push(head + planId + tail);
    }
  }
  return `{"coverage":[${parts.join(',')}]}`;
}
