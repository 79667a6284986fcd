/**
 * Longest word prefix stored for drug-name typeahead: a query word longer than this is matched on its first
 * letters (ingest stores prefixes up to it, the drug store cuts query words to it).
 */
export const MAX_PREFIX = 24;
