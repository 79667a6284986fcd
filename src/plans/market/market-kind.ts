/** The markets a request may ask for (CMS `MarketEnum`): the schema's values and the type, written once. */
export const MARKETS = ['Individual', 'SHOP', 'Any'] as const;
export type MarketKind = (typeof MARKETS)[number];
