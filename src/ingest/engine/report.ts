/** What every ingest reports, whatever its format: rows read and stored, and the rows it refused. */

export interface RejectedRow {
  file: string;
  /** 1-based line of a text file; for a JSON file, the 1-based position of the element in its array. */
  line: number;
  reason: string;
}

export interface IngestSummary {
  kind: string;
  files: string[];
  years: number[];
  read: number;
  /**
   * Rows read and accepted that wrote no row of their own: a repeat of an earlier row, a row the format
   * leaves out (another year's, a county change other than an addition, an unknown county), or one folded
   * into totals written once every row was seen. Counted by the tabular kinds.
   */
  skipped: number;
  /** Table rows written (a row may fill several tables, or none). */
  stored: number;
  rejected: RejectedRow[];
  /**
   * What the load could not check in its own files and the service will need: another kind not loaded for
   * a year the load wrote (rates without a rating-area table answer every priced request with 1017).
   * Printed as `warning: …` lines and kept in `--json` output; absent or empty when there is none.
   */
  warnings?: string[];
  /** True when more rows were rejected than the report lists. */
  rejectedTruncated: boolean;
  rejectedCount: number;
}

export interface IngestOptions {
  year?: number;
  /** How many rejected rows a load may have and still be stored (default 0: any bad row aborts it). */
  allowRejects?: number;
  sample?: boolean;
  now: number;
  /** Called as bytes of the input files are consumed: (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** A load that stored nothing: the file could not be read, or too many rows were refused. */
export class IngestError extends Error {
  constructor(
    message: string,
    readonly summary?: IngestSummary,
  ) {
    super(message);
  }
}

const REPORTED_REJECTS = 100;

/**
 * A load's summary and the way rows are refused: the first 100 refusals are listed, and a load that
 * refuses more than `allow` + 100 stops reading (the file is not what the kind expects).
 */
export function createLoadReport(
  kind: string,
  files: string[],
  allow: number,
  onProgress?: (done: number, total: number) => void,
) {
  const summary: IngestSummary = {
    kind,
    files,
    years: [],
    read: 0,
    skipped: 0,
    stored: 0,
    rejected: [],
    warnings: [],
    rejectedTruncated: false,
    rejectedCount: 0,
  };
  const reject = (file: string, line: number, reason: string) => {
    summary.rejectedCount += 1;
    if (summary.rejected.length < REPORTED_REJECTS) summary.rejected.push({ file, line, reason });
    else summary.rejectedTruncated = true;
    if (summary.rejectedCount > allow + REPORTED_REJECTS) {
      throw new IngestError(`more than ${allow + REPORTED_REJECTS} rows rejected; stopped reading`, summary);
    }
  };
  /** Throws when more rows were refused than the load may have. */
  const checkRejects = () => {
    if (summary.rejectedCount > allow) {
      throw new IngestError(
        `${summary.rejectedCount} row${summary.rejectedCount > 1 ? 's' : ''} rejected ` +
          `(allowed: ${allow}); nothing was stored`,
        summary,
      );
    }
  };
  let total = 0;
  let done = 0;
  const progress = {
    /** Adds to the bytes the load will read. */
    expect(bytes: number) {
      total += bytes;
    },
    /** Bytes read so far; the caller hears (done, total). */
    advance(bytes: number) {
      done += bytes;
      onProgress?.(Math.min(done, total), total);
    },
  };
  /** The summary of a stored load: its years and the rows written for them. */
  const stored = (counts: Map<number, number>): IngestSummary => {
    summary.years = [...counts.keys()].sort();
    summary.stored = [...counts.values()].reduce((a, b) => a + b, 0);
    return summary;
  };
  return { summary, reject, checkRejects, progress, stored };
}
