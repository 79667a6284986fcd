/** The addenda, by the facility type they give costs for. */
const ADDENDA = { 'opps-addendum-b': 'HOPD', 'asc-addendum-aa': 'ASC' } as const;
export const PRICE_KINDS = ['opps-addendum-b', 'asc-addendum-aa', 'ppl-procedures'] as const;

/** What the lookup needs to know of a loaded dataset (the plan API's dataset list, passed in). */
export interface LoadedDataset {
  kind: string;
  year: number;
  sample: boolean;
}

/** Which loaded price data answers: a year per facility type, whether the procedure list applies. */
export interface PriceScope {
  years: { facilityType: string; year: number }[];
  procedureList: boolean;
  /** Built from the generated sample (to be labelled so). */
  sample: boolean;
}

/**
 * The price data the lookup answers from: the latest calendar year of each addendum, and the operator's
 * procedure list when one is loaded. Once any real price data is loaded, the generated sample's is
 * ignored altogether: a sample list must not hide real codes, nor a sample year outrank a real one.
 */
export function priceScope(datasets: readonly LoadedDataset[]): PriceScope {
  const prices = datasets.filter((d) => (PRICE_KINDS as readonly string[]).includes(d.kind));
  const real = prices.filter((d) => !d.sample);
  const used = real.length > 0 ? real : prices;
  const years: PriceScope['years'] = [];
  for (const [kind, facilityType] of Object.entries(ADDENDA)) {
    const loaded = used.filter((d) => d.kind === kind).map((d) => d.year);
    if (loaded.length > 0) years.push({ facilityType, year: Math.max(...loaded) });
  }
  return {
    years,
    procedureList: used.some((d) => d.kind === 'ppl-procedures'),
    sample: used.some((d) => d.sample),
  };
}
