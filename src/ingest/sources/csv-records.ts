/**
 * A streaming RFC 4180 CSV tokenizer: text chunks in, records out, each with the line it ends on.
 *
 * It replaces csv-parse on the ingest path because the CMS files are wide (151 columns in the Plan
 * Attributes PUF) and csv-parse took most of an ingest's time on them; this loop takes a small part of it
 * (figures in bench/RESULTS.md). It keeps the csv-parse options the ingest used: a leading
 * byte order mark is dropped, rows may have any number of cells, empty lines are skipped, and a
 * malformed quote is an error with a `CSV_…` code.
 */

/** A record and the 1-based line of the file it ends on. */
export interface CsvRecord {
  record: string[];
  line: number;
}

/** Malformed CSV; `code` follows csv-parse (`CSV_QUOTE_NOT_CLOSED`, `CSV_INVALID_CLOSING_QUOTE`, …). */
export class CsvError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * A line whose every cell is quoted and holds no quote: the quotes are exactly the delimiters. V8's regular
 * expressions run as native code; checked once per line, this is cheaper than looking into every cell.
 */
const ALL_QUOTED = /^"[^"]*(?:","[^"]*)*"$/;

/**
 * Splits a line whose every cell is quoted (the NPPES file quotes all 330 cells, most of them empty) by
 * its `","` separators, natively: much cheaper than splitting by each quote. Undefined unless the
 * whole line has that shape (a cell with a quote or a line break in it goes to the general readers).
 */
function splitAllQuotedLine(line: string): string[] | undefined {
  return ALL_QUOTED.test(line) ? line.slice(1, -1).split('","') : undefined;
}

/**
 * The same check for a line of which a reader needs a few cells: one expression that matches the whole
 * line as ALL_QUOTED does and captures only the cells at `positions` (ascending), so one native call does
 * the checking and the picking (NPPES: 47 of the first 107 of 330 cells), in less time than splitting.
 */
function pickingExpression(positions: readonly number[]): RegExp {
  const wanted = new Set(positions);
  const cells = Array.from({ length: positions[positions.length - 1]! + 1 }, (_, i) =>
    wanted.has(i) ? '([^"]*)' : '[^"]*',
  );
  return new RegExp(`^"${cells.join('","')}(?:","[^"]*)*"$`);
}

/**
 * Splits a line that holds whole quoted cells by its quotes, natively: segments alternate between text
 * outside quotes (split by commas) and inside them, and an empty outside segment between two inside
 * ones is an escaped quote (`""`). Undefined when the line is not that simple (an odd number of quotes:
 * a cell goes on to the next line; or a quote where none may be), for the character-level reader.
 */
function splitQuotedLine(line: string): string[] | undefined {
  const segments = line.split('"');
  if (segments.length % 2 === 0) return undefined;
  const record: string[] = [];
  let pieces = segments[0]!.split(',');
  if (pieces[pieces.length - 1] !== '') return undefined;
  for (let j = 0; j < pieces.length - 1; j++) record.push(pieces[j]!);
  for (let k = 1; k < segments.length; k += 2) {
    let value = segments[k]!;
    while (k + 2 < segments.length && segments[k + 1] === '') {
      value += `"${segments[k + 2]!}`;
      k += 2;
    }
    record.push(value);
    const outside = segments[k + 1]!;
    const last = k + 2 >= segments.length;
    if (outside === '') break;
    if (outside.charCodeAt(0) !== COMMA) return undefined;
    pieces = outside.split(',');
    for (let j = 1; j < pieces.length - 1; j++) record.push(pieces[j]!);
    const tail = pieces[pieces.length - 1]!;
    if (last) record.push(tail);
    else if (tail !== '') return undefined;
  }
  return record;
}

export class CsvRecordParser {
  /** The positions of the cells records carry, once `pick` was called; all cells until then. */
  #positions: readonly number[] | undefined;
  #picking: RegExp | undefined;
  /** Text of a record not complete yet (the chunk ended inside it). */
  #pending = '';
  #line = 1;
  #first = true;

  /**
   * From now on, records carry only the cells at `positions` (ascending, non-empty), in that order from
   * their second element on (the first is unused: a regular expression's match is the record as it is); a
   * short row's missing ones are undefined. A reader that needs few of many cells (NPPES) is spared the rest.
   */
  pick(positions: readonly number[]): void {
    this.#positions = positions;
    this.#picking = pickingExpression(positions);
  }

  /** `record` reduced to the picked cells (after an unused first element, as a match's), once `pick` was called. */
  picked(record: string[]): string[] {
    const positions = this.#positions;
    return positions ? ['', ...positions.map((p) => record[p]!)] : record;
  }

  /** A line whose every cell is quoted, split (picked: the match itself), or undefined when it is not such a line. */
  #allQuoted(line: string): string[] | undefined {
    if (!this.#picking) return splitAllQuotedLine(line);
    return this.#picking.exec(line) ?? undefined;
  }

  /** Tokenizes one chunk of text and returns the records it completed. */
  push(chunk: string): CsvRecord[] {
    let text = chunk;
    if (this.#first && text.length > 0) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return this.#scan(this.#pending + text, false);
  }

  /** Ends the input: returns the last record (one without a final line break), or throws if a quote is open. */
  end(): CsvRecord[] {
    return this.#scan(this.#pending, true);
  }

  #scan(text: string, final: boolean): CsvRecord[] {
    const out: CsvRecord[] = [];
    let pos = 0;
    // The next LF, looked up again only once passed (a file of CR line ends has none: search once).
    let lf = -2;
    while (pos < text.length) {
      // Fast path: a whole line without quotes or stray CRs splits natively (most lines of the CMS files).
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (lf !== -1) {
        const end = lf > pos && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
        const line = text.slice(pos, end);
        let record: string[] | undefined;
        if (line.indexOf('\r') === -1) {
          if (line.indexOf('"') === -1) {
            record = this.picked(line.split(','));
          } else {
            record = this.#allQuoted(line);
            if (!record) {
              const split = splitQuotedLine(line);
              if (split) record = this.picked(split);
            }
          }
        }
        if (record) {
          if (line !== '') out.push({ record, line: this.#line });
          this.#line += 1;
          pos = lf + 1;
          continue;
        }
      }
      const next = this.#record(text, pos, final, out);
      if (next === undefined) break;
      pos = next;
    }
    this.#pending = text.slice(pos);
    return out;
  }

  /**
   * Reads one record that starts at `start` character by character (quoted cells, CR line ends) and
   * returns where the next begins, or undefined when the text ends first and more may come.
   */
  #record(text: string, start: number, final: boolean, out: CsvRecord[]): number | undefined {
    const record: string[] = [];
    let lines = 0;
    let field = '';
    let quoted = false;
    let from = start;
    let i = start;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === QUOTE) {
          field += text.slice(from, i);
          const after = text.charCodeAt(i + 1);
          if (after === QUOTE) {
            from = i + 1;
            i += 1;
            continue;
          }
          if (i + 1 === text.length && !final) return undefined;
          quoted = false;
          if (i + 1 < text.length && after !== COMMA && after !== LF && after !== CR) {
            throw new CsvError(
              'CSV_INVALID_CLOSING_QUOTE',
              `Invalid Closing Quote: got "${text[i + 1]}" at line ${this.#line + lines} ` +
                'instead of a comma or line break',
            );
          }
          from = -1;
        } else if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) {
          lines += 1;
        }
        continue;
      }
      if (c === QUOTE) {
        if (from !== i) {
          throw new CsvError(
            'CSV_INVALID_OPENING_QUOTE',
            `Invalid Opening Quote: a quote is found inside an unquoted cell at line ${this.#line + lines}`,
          );
        }
        quoted = true;
        from = i + 1;
      } else if (c === COMMA) {
        record.push(from === -1 ? field : text.slice(from, i));
        field = '';
        from = i + 1;
      } else if (c === LF || c === CR) {
        if (c === CR && i + 1 === text.length && !final) return undefined;
        const empty = record.length === 0 && from === start && i === start;
        record.push(from === -1 ? field : text.slice(from, i));
        if (!empty) out.push({ record: this.picked(record), line: this.#line + lines });
        this.#line += lines + 1;
        return c === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
      }
    }
    if (!final) return undefined;
    if (quoted) {
      throw new CsvError(
        'CSV_QUOTE_NOT_CLOSED',
        `Quote Not Closed: the parsing is finished with an opening quote at line ${this.#line + lines}`,
      );
    }
    record.push(from === -1 ? field : text.slice(from, i));
    out.push({ record: this.picked(record), line: this.#line + lines });
    return i;
  }
}
