import { MAX_PREFIX } from '../tables/word-prefix.js';

const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * The words of a drug name or a query, for typeahead: lower case, accents dropped, split on anything
 * that is not a letter or digit ("0.09 MG/ACTUAT" → 0, 09, mg, actuat). Ingest and search split alike,
 * so a query word matches the start of a name word.
 */
export function wordsOf(text: string): string[] {
  // ASCII text is its own NFKD form and has no accents to drop (most names: a third of the cost).
  return (!NOT_ASCII.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Every prefix (1 … MAX_PREFIX letters) of every word of `name`, each once. */
export function prefixesOf(name: string): Set<string> {
  const prefixes = new Set<string>();
  for (const word of wordsOf(name)) {
    const end = Math.min(word.length, MAX_PREFIX);
    for (let n = 1; n <= end; n++) prefixes.add(word.slice(0, n));
  }
  return prefixes;
}
