/**
 * One RIF line as its cells. A RIF file is pipe-delimited text read as BFD's pipeline reads it
 * (docs/claims-rif.md#rif): a backslash right before a pipe is dropped (CCW writes `…34867\|COLOMBIA` for
 * two cells), then the line is read as Excel-style CSV with `|` between cells, `"` around a quoted cell
 * and `\` escaping the next character (`\|`, `\"`, `\\` stand for themselves, `\t`, `\n`, `\r`, `\b`,
 * `\f` for the control characters; before any other character the backslash is kept). A record is one
 * line: a quoted cell may not run on to the next.
 */

/** A line that cannot be read as cells, with the reason. */
export class CellError extends Error {}

const CONTROL: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', b: '\b', f: '\f' };

/** The cells of one line (without its line ending). */
export function splitCells(line: string): string[] {
  if (line.indexOf('\\') === -1 && line.indexOf('"') === -1) return line.split('|');
  return readCells(line.replaceAll('\\|', '|'));
}

/** The careful reading: quotes and escapes, character by character (rare in RIF files). */
function readCells(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= line.length) throw new CellError(`a quoted cell (cell ${cells.length + 1}) is not closed`);
        const c = line[i]!;
        if (c === '"') {
          if (line[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (c === '\\' && i + 1 < line.length) {
          cell += unescaped(line[i + 1]!);
          i += 2;
          continue;
        }
        cell += c;
        i += 1;
      }
      if (i < line.length && line[i] !== '|') {
        throw new CellError(`text follows the closing quote of cell ${cells.length + 1}`);
      }
    } else {
      while (i < line.length && line[i] !== '|') {
        const c = line[i]!;
        if (c === '\\' && i + 1 < line.length) {
          cell += unescaped(line[i + 1]!);
          i += 2;
          continue;
        }
        cell += c;
        i += 1;
      }
    }
    cells.push(cell);
    if (i >= line.length) return cells;
    i += 1; // the pipe
  }
}

/** What `\` + `next` stands for. */
function unescaped(next: string): string {
  if (next === '|' || next === '"' || next === '\\') return next;
  return CONTROL[next] ?? `\\${next}`;
}
