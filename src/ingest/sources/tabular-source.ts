/** What every tabular reader (CSV, workbook) yields, so the readers and their dispatcher share no cycle. */

/** One data row: its 1-based line in the file (the header is line 1) and its cells by header name. */
export interface SourceRow {
  line: number;
  cells: Record<string, string>;
}

/** A tabular source being read: its header (names trimmed) and its rows, streamed. */
export interface TabularSource {
  header: string[];
  rows: AsyncIterable<SourceRow>;
}
