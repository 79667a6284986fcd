/** Ingest kinds that load plans: a year with one of them loaded is a market year we serve. */
export const PLAN_KINDS = ['plan-attributes', 'landscape'] as const;
