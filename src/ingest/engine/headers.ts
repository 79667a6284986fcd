/**
 * Column names as published vary by vintage in case, spacing and punctuation (HUD `ZIP` / `zip`; CMS
 * landscape `Premium Couple 21  `, `Plan ID - Standard Component`, `plan_id_standard_component`, names
 * broken over two lines). Formats that accept several vintages match on a normalised name instead.
 */
export function normaliseHeader(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Reads a row's cells by normalised column name. */
export interface Columns {
  has(name: string): boolean;
  /** The trimmed cell of the first present column among `names` ('' when none is present). */
  get(cells: Record<string, string>, ...names: string[]): string;
}

/** The columns of a header (or of a row's keys), by normalised name. */
export function columnsOf(header: Iterable<string>): Columns {
  const raw = new Map<string, string>();
  for (const name of header) {
    const key = normaliseHeader(name);
    if (!raw.has(key)) raw.set(key, name);
  }
  return {
    has: (name) => raw.has(name),
    get(cells, ...names) {
      for (const name of names) {
        const column = raw.get(name);
        if (column !== undefined) return (cells[column] ?? '').trim();
      }
      return '';
    },
  };
}

/**
 * The groups of `required` (each a list of accepted normalised names) that `header` has none of, named
 * by each group's first name: the message a person sees when a file is not the expected format.
 */
export function missingGroups(header: string[], required: readonly (readonly string[])[]): string[] {
  const columns = columnsOf(header);
  return required.filter((names) => !names.some((n) => columns.has(n))).map((names) => names[0]!);
}

/**
 * Per-handler column lookup: the runner hands a format the header only in `missingColumns`, and every
 * row carries all header names as keys, so the first row's keys give the file's columns.
 */
export function lazyColumns(): (cells: Record<string, string>) => Columns {
  let columns: Columns | undefined;
  return (cells) => (columns ??= columnsOf(Object.keys(cells)));
}
