import { wordsOf } from '../../plans/drugs/words.js';
import { write, type Write } from '../engine/writes.js';

const TERM_BATCH = 100_000;

/**
 * The words of providers' names by ZIP (`provider_terms`, what provider search reads), gathered a batch at
 * a time and written in ZIP order: inserted grouped by the first column of the (zip, term, npi) index they
 * fill, they touch far fewer pages than in file order (figures in bench/RESULTS.md).
 * Grouping by ZIP alone is as good as a full sort there, and a counting sort over the 100,000 ZIP codes
 * costs a fifth of a comparison sort.
 * The batch is held as plain arrays, not objects per word: objects that live for 30,000 rows are copied
 * by young-generation collections and then promoted.
 */
export function createTermBatch() {
  let words: string[] = [];
  /** For each word: its provider (an index into the three arrays below) and its ZIP as a number. */
  let owners: number[] = [];
  let zips: number[] = [];
  let ownerZip: string[] = [];
  let ownerNpi: string[] = [];
  let ownerType: string[] = [];
  const firstOfZip = new Int32Array(100_001);
  return {
    /** Adds the words (two letters or more, each once) of a provider's name. */
    add(npi: string, zip: string, type: string, name: string): void {
      const owner = ownerNpi.push(npi) - 1;
      ownerZip.push(zip);
      ownerType.push(type);
      const zipOrder = Number(zip);
      for (const term of new Set(wordsOf(name))) {
        if (term.length < 2) continue;
        words.push(term);
        owners.push(owner);
        zips.push(zipOrder);
      }
    },
    /** Whether the batch is due to be written. */
    full: () => words.length >= TERM_BATCH,
    /** The batch's rows in ZIP order; the batch starts again empty. */
    take(): Write[] {
      firstOfZip.fill(0);
      for (const zip of zips) firstOfZip[zip + 1]! += 1;
      for (let z = 1; z < firstOfZip.length; z++) firstOfZip[z]! += firstOfZip[z - 1]!;
      const batch = new Array<Write>(words.length);
      for (let i = 0; i < words.length; i++) {
        const owner = owners[i]!;
        batch[firstOfZip[zips[i]!]!++] = write('provider_terms', {
          zip: ownerZip[owner]!,
          term: words[i]!,
          npi: ownerNpi[owner]!,
          type: ownerType[owner]!,
        });
      }
      words = [];
      owners = [];
      zips = [];
      ownerZip = [];
      ownerNpi = [];
      ownerType = [];
      return batch;
    },
  };
}
