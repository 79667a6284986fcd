/**
 * Regenerates src/fhir/bfd/codebook-data.ts, the CCW codebook table behind BFD's coding displays
 * (docs/claims-rif.md#the-codebook), from the CMS Chronic Conditions Warehouse (CCW) codebook PDFs that BFD
 * keeps in its public repository (US-government work) under
 * apps/bfd-model/bfd-model-codebook-plugin/src/main/resources/.
 *
 * BFD reads each PDF's text into lines at build time and cuts them into variables: an id line, then fields
 * such as `LABEL:`, `VALUES:` and `COMMENT:`; a `VALUES:` field holding `code = description` lines makes the
 * variable coded. This script reads the same documents with poppler's pdftotext and follows the same rules,
 * so that every code gets the description BFD shows for it: a description wrapped over several lines is
 * rejoined with single spaces (none after a line ending in a hyphen); text that follows a code line without
 * a code of its own belongs to that code; a code listed twice in a variable has no display at all (written
 * as null). When a variable is in more than one codebook the first codebook in BFD's order (MBSF A/B/D,
 * MBSF A/B/C/D, FFS claims, PDE) wins. BFD's few hand-written variables that the PDFs lack are added as BFD
 * defines them: their only code is the empty one, displayed as the label.
 *
 * The text comes from `pdftotext -bbox` (each word and its box), laid out into lines by position, as BFD's
 * extractor does, rather than from `pdftotext -raw` (drawing order) or `-layout`. `-raw` differs from BFD's
 * reading in two places of the claims codebook: it keeps a raised ordinal suffix in its line ("Amount for
 * 1st Code", which BFD reads "Amount for 1 Code"), and it drops the space the PDF draws, squeezed, after
 * "deductible non-" in a PRTCPTNG_IND_CD description, which BFD keeps. `-layout` sets many codes against
 * their "=" ("1= Original debit"), which then no longer read as codes.
 *
 *   node --import tsx scripts/codebook.ts <dir holding the four PDFs>
 *   node --import tsx scripts/codebook.ts --bfd /work/.mirror/CMSgov+beneficiary-fhir-data/repo
 *   node --import tsx scripts/codebook.ts --bfd <repo> --check   # is the generated file up to date?
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** The BFD commit whose codebooks the table is generated from. */
export const BFD_COMMIT = '62b2d2e8d9b050f09a7e9e01b2c4c991ce464be4';
const PDF_DIR = 'apps/bfd-model/bfd-model-codebook-plugin/src/main/resources';
const OUT = resolve(import.meta.dirname, '..', 'src', 'fhir', 'bfd', 'codebook-data.ts');

/** The codebooks, in BFD's order of precedence, with their titles and versions. */
export const CODEBOOKS = [
  {
    file: 'codebook-mbsf-abd.pdf',
    title: 'Master Beneficiary Summary File - Base With Medicare Part A/B/D, May 2017, Version 1.0',
  },
  {
    file: 'codebook-mbsf-abcd.pdf',
    title: 'Master Beneficiary Summary File - Base With Medicare Part A/B/C/D, April 2019, Version 1.2',
  },
  {
    file: 'codebook-ffs-claims.pdf',
    title: 'Medicare Fee-For-Service Claims (for Version K), December 2017, Version 1.4',
  },
  {
    file: 'codebook-pde.pdf',
    title: 'Medicare Part D Event (PDE) / Drug Characteristics, May 2017, Version 1.0',
  },
] as const;

/** One variable as the codebook defines it: values are (code, description) in document order. */
export interface ParsedVariable {
  id: string;
  label: string;
  values?: [code: string, description: string][];
}

/**
 * Variables BFD uses that none of the PDFs defines, with BFD's own labels (its CcwCodebookMissingVariable):
 * each has a single value whose code is empty and whose description is the label.
 */
const MISSING_VARIABLES: Readonly<Record<string, string>> = {
  MBI_EFFCTV_DT: 'MBI Effective Date',
  MBI_END_DT: 'MBI End Date',
  FI_DOC_CLM_CNTL_NUM: 'Document Claim Control Number',
  FI_ORIG_CLM_CNTL_NUM: 'FI Original Claim Control Number',
  CARR_CLM_CNTL_NUM: 'Carrier Claim Control Number',
  REV_CNTR_UNIT_CNT: 'Revenue Center Unit Count',
};

/** A variable id the December 2017 claims codebook misspells, and its right spelling (BFD renames it too). */
const ID_FIXES: Readonly<Record<string, string>> = { NCH_CLM_PRVDT_PMT_AMT: 'NCH_CLM_PRVDR_PMT_AMT' };

/**
 * Lines that open a new value group instead of continuing the previous value's description. The codebooks
 * do not mark them; BFD lists the two it knows, and the text after them still lists codes.
 */
const GROUP_HEADINGS: Readonly<Record<string, readonly string[]>> = {
  CARR_CLM_PMT_DNL_CD: [
    'Prior to 2011, the following 1-byte character codes were also valid (these characters',
    'preceded use of 2-byte codes, above):',
  ],
  CARR_LINE_PRVDR_TYPE_CD: [
    'NOTE: PRIOR TO VERSION H, DME claims also used this code; the following were valid',
    'code VALUES:',
  ],
};

/** Field names that end the previous field; other `WORD:` lines inside descriptions are text. */
const FIELD_NAMES = new Set([
  'LABEL',
  'NAME',
  'DESCRIPTION',
  'SHORT NAME',
  'LONG NAME',
  'TYPE',
  'LENGTH',
  'SOURCE',
  'VALUES',
  'CODE VALUES',
  'COMMENT',
]);

/** Whitespace as the codebook text has it (ASCII only: a no-break space is part of a word). */
const WS = '[ \\t\\n\\x0B\\f\\r]';
/** A `code = description` line: the code is the first word, the description may be empty. */
const CODE_LINE = new RegExp(`^([^ \\t\\n\\x0B\\f\\r]+)${WS}+=${WS}*(.*)$`);

/** Page furniture: running headers and footers, "back to contents" links and blank lines. */
const FURNITURE = [
  /^$/,
  /^Medicare FFS Claims \(Version .\) Codebook .*$/,
  /^\^ Back to TOC \^$/,
  /^CMS Chronic Conditions Data Warehouse \(CCW\) – Codebook$/,
  /^Master Beneficiary Summary File \(MBSF\) with Medicare Part A, B, C & D$/,
  /^Medicare Part D Event \(PDE\) \/ Drug Characteristics File$/,
  /^.*Version .*\s+Page \d+ of \d+$/,
];

/** Trims control characters and spaces from both ends (not other Unicode spaces), as the text's lines need. */
function trimAscii(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/**
 * The text lines of a codebook, trimmed, with runs of spaces made single; lines that are only an ordinal
 * suffix ("st", "nd", "rd", "th": a raised suffix read as a line of its own, see pageLines) are dropped.
 */
export function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => trimAscii(line).replace(/ {2,}/g, ' '))
    .filter((line) => !['st', 'nd', 'rd', 'th'].includes(line));
}

function isFurniture(line: string): boolean {
  return FURNITURE.some((re) => re.test(line));
}

function isLabelLine(line: string): boolean {
  return line.startsWith('LABEL:') || line.startsWith('NAME:');
}

/**
 * The lines of each variable, furniture left out. A variable starts on the line before its `LABEL:` (or
 * `NAME:`) line, which holds its id, and runs to the next variable's id line.
 */
export function variableSections(lines: readonly string[]): string[][] {
  const firstLabel = lines.findIndex(isLabelLine);
  if (firstLabel < 0) throw new Error('no LABEL: line: not a CCW codebook');
  let start = firstLabel - 1;
  while (start >= 0 && isFurniture(lines[start]!)) start--;
  if (start < 0) throw new Error('no variable id before the first LABEL: line');
  const sections: string[][] = [];
  let current: string[] = [];
  for (const line of lines.slice(start)) {
    if (!isFurniture(line)) current.push(line);
    if (isLabelLine(line) && current.length !== 2) {
      sections.push(current.slice(0, -2));
      current = current.slice(-2);
    }
  }
  if (current.length > 0) sections.push(current);
  return sections;
}

/**
 * The lines of one field of a section: the text after `NAME:` on its first line, then the lines up to the
 * next field, without blank lines or lone dashes (the codebooks' "none"). Undefined when the field is absent.
 */
export function fieldLines(section: readonly string[], names: readonly string[]): string[] | undefined {
  let start: number | undefined;
  let first = '';
  let end = section.length;
  for (let i = 0; i < section.length; i++) {
    const line = section[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : undefined;
    if (name !== undefined && names.includes(name)) {
      start = i;
      first = trimAscii(line.slice(colon + 1));
      continue;
    }
    if (start !== undefined && name !== undefined && /^[A-Z_0-9 ]+$/.test(name) && FIELD_NAMES.has(name)) {
      end = i;
      break;
    }
  }
  if (start === undefined) return undefined;
  return [first, ...section.slice(start + 1, end)].filter((line) => line !== '' && line !== '-');
}

/**
 * Rejoins wrapped lines into paragraphs: a line ending in a period ends its paragraph; lines are joined with
 * a space, except after a line ending in a hyphen (a word or URL split across lines).
 */
export function paragraphs(lines: readonly string[]): string[] {
  const out: string[] = [];
  let paragraph = '';
  lines.forEach((line, i) => {
    paragraph += line;
    if (line.endsWith('.')) {
      out.push(paragraph);
      paragraph = '';
    } else if (i < lines.length - 1 && !paragraph.endsWith('-')) {
      paragraph += ' ';
    }
  });
  if (paragraph !== '') out.push(paragraph);
  return out;
}

/** A value's description: its code line's text and the lines after it, rejoined. */
function valueOf(lines: readonly string[]): [string, string] {
  const m = CODE_LINE.exec(lines[0]!)!;
  return [m[1]!, paragraphs([m[2]!, ...lines.slice(1)]).join(' ')];
}

/**
 * The codes of a coded variable, in document order. Lines before the first code line describe the first
 * group; after that a line without a code continues the previous value's description unless it is one of
 * the known group headings. Undefined when the variable is not coded (no `code = …` line anywhere in it).
 */
export function parseValues(id: string, section: readonly string[]): [string, string][] | undefined {
  const lines = fieldLines(section, ['VALUES', 'CODE VALUES']);
  if (lines === undefined) throw new Error(`${id}: no VALUES field`);
  if (!section.some((line) => CODE_LINE.test(line))) return undefined;
  // Group headings only exist where the field opens with text rather than with a code.
  const headings = lines.length > 0 && CODE_LINE.test(lines[0]!) ? [] : (GROUP_HEADINGS[id] ?? []);
  const values: [string, string][] = [];
  let value: string[] = [];
  let seenCode = false;
  const flush = () => {
    if (value.length > 0) values.push(valueOf(value));
    value = [];
  };
  for (const line of lines) {
    const isCode = CODE_LINE.test(line);
    seenCode ||= isCode;
    if (!seenCode || headings.includes(line)) {
      flush();
      continue;
    }
    if (isCode) flush();
    value.push(line);
  }
  flush();
  return values;
}

/** One variable from its section. */
export function parseVariable(section: readonly string[]): ParsedVariable {
  const id = section[0]!;
  const label = paragraphs(fieldLines(section, ['LABEL', 'NAME']) ?? []);
  if (label.length !== 1) throw new Error(`${id}: the label is ${label.length} paragraphs`);
  const values = parseValues(id, section);
  return { id: ID_FIXES[id] ?? id, label: label[0]!, ...(values ? { values } : {}) };
}

/** Every variable of one codebook's text. */
export function parseCodebook(text: string): ParsedVariable[] {
  return variableSections(textLines(text)).map(parseVariable);
}

/** The table entry: label and code → description in document order, null for a code listed more than once. */
export interface Entry {
  label: string;
  values?: Map<string, string | null>;
}

/** Merges the codebooks (first definition of an id wins) and adds BFD's hand-written variables. */
export function buildTable(codebooks: readonly ParsedVariable[][]): Map<string, Entry> {
  const table = new Map<string, Entry>();
  for (const variables of codebooks) {
    for (const v of variables) {
      const key = v.id.toLowerCase();
      if (table.has(key)) continue;
      const entry: Entry = { label: v.label };
      if (v.values && v.values.length > 0) {
        const values = new Map<string, string | null>();
        for (const [code, description] of v.values) values.set(code, values.has(code) ? null : description);
        entry.values = values;
      }
      table.set(key, entry);
    }
  }
  for (const [id, label] of Object.entries(MISSING_VARIABLES)) {
    const key = id.toLowerCase();
    if (!table.has(key)) table.set(key, { label, values: new Map([['', label]]) });
  }
  return table;
}

/** A single-quoted JavaScript string literal. */
function quote(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n')}'`;
}

/**
 * The generated module: one variable per line, variables sorted, codes in document order. A code list that
 * several variables share (the twelve monthly enrollment variables, the 25 diagnosis present-on-admission
 * switches, …) is written once, as a constant named after the first of them.
 */
export function render(table: ReadonlyMap<string, Entry>): string {
  const keys = [...table.keys()].sort();
  const codes = new Map<string, string>();
  for (const key of keys) {
    const values = table.get(key)!.values;
    if (!values) continue;
    const list = [...values].map(([code, text]) => `${quote(code)}:${text === null ? 'null' : quote(text)}`);
    codes.set(key, `{${list.join(',')}}`);
  }
  const shared = new Map<string, string>();
  const users = new Map<string, number>();
  for (const list of codes.values()) users.set(list, (users.get(list) ?? 0) + 1);
  for (const [key, list] of codes) {
    if (users.get(list)! > 1 && !shared.has(list)) shared.set(list, `values_${key}`);
  }
  const constants = [...shared].map(([list, name]) => `const ${name} = ${list} as const;`);
  const variables = keys.map((key) => {
    const list = codes.get(key);
    const values = list === undefined ? '' : `,values:${shared.get(list) ?? list}`;
    return `${key}:{label:${quote(table.get(key)!.label)}${values}},`;
  });
  return [
    '// Generated by scripts/codebook.ts; do not edit by hand. The CMS Chronic Conditions Warehouse (CCW)',
    "// codebooks, as published in BFD's public repository (github.com/CMSgov/beneficiary-fhir-data) at",
    `// commit ${BFD_COMMIT}, ${PDF_DIR}/:`,
    ...CODEBOOKS.map((c) => `// ${c.file}: ${c.title}.`),
    '// Each variable: its label and, when coded, code → description; null marks a code listed twice (no display).',
    ...constants,
    'export const CODEBOOK = {',
    ...variables,
    '} as const;',
    '',
  ].join('\n');
}

/** One word of `pdftotext -bbox` output: its box in points (y grows downwards) and its text. */
export interface Word {
  xMin: number;
  yMax: number;
  text: string;
}

/** The words of each page of `pdftotext -bbox` output. */
export function bboxPages(html: string): Word[][] {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  const word = /<word xMin="([-\d.]+)" yMin="[-\d.]+" xMax="[-\d.]+" yMax="([-\d.]+)">([^<]*)<\/word>/g;
  return html
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(word)].map((m) => ({
        xMin: Number(m[1]),
        yMax: Number(m[2]),
        text: m[3]!.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => entities[e]!),
      })),
    );
}

/**
 * How far apart (in points) the bottoms of two words on one line may be. Words of one line differ by less
 * than a point (type size changes); a superscript sits about 4.5 points higher, a new line 14 lower.
 */
const SAME_LINE = 2;

/**
 * A page's text lines as BFD's extractor reads them: by position, not in drawing order. Words whose boxes
 * end at the same height share a line; lines go top to bottom, words left to right, one space apart. A
 * raised superscript thus makes a short line of its own just above its line (BFD then drops "st", "nd",
 * "rd" and "th"), so the codebook's "for 1st Code", with a raised "st", reads "for 1 Code".
 */
export function pageLines(words: readonly Word[]): string[] {
  const lines: Word[][] = [];
  for (const word of [...words].sort((a, b) => a.yMax - b.yMax || a.xMin - b.xMin)) {
    const line = lines[lines.length - 1];
    if (line && word.yMax - line[0]!.yMax <= SAME_LINE) line.push(word);
    else lines.push([word]);
  }
  return lines.map((line) =>
    line
      .sort((a, b) => a.xMin - b.xMin)
      .map((w) => w.text)
      .join(' '),
  );
}

/** The text of a PDF, line by line, from `pdftotext -bbox` (words and their boxes, UTF-8). */
function pdfText(file: string): string {
  const html = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return bboxPages(html)
    .flatMap((words) => pageLines(words))
    .join('\n');
}

/** Copies the four PDFs out of a BFD git repository (bare or not) at BFD_COMMIT into a new directory. */
function extractFromBfd(repo: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'codebook-'));
  for (const { file } of CODEBOOKS) {
    const pdf = execFileSync('git', ['-C', repo, 'show', `${BFD_COMMIT}:${PDF_DIR}/${file}`], {
      maxBuffer: 64 * 1024 * 1024,
    });
    writeFileSync(join(dir, file), pdf);
  }
  return dir;
}

const HELP = `Usage: node --import tsx scripts/codebook.ts [options] [<dir>]

Regenerates src/fhir/bfd/codebook-data.ts from the four CCW codebook PDFs
(${CODEBOOKS.map((c) => c.file).join(', ')}) found in <dir>.
Needs pdftotext (poppler-utils).

Options:
  --bfd <repo>   take the PDFs from a BFD git repository at commit ${BFD_COMMIT.slice(0, 12)}
  --out <file>   write there instead of src/fhir/bfd/codebook-data.ts
  --check        write nothing; fail if the file differs from what would be written
  -h, --help     show this help
`;

function main(): void {
  const { values: opts, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      bfd: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (opts.help || (positionals.length !== 1) === (opts.bfd === undefined)) {
    process.stdout.write(HELP);
    process.exitCode = opts.help ? 0 : 2;
    return;
  }
  const dir = opts.bfd !== undefined ? extractFromBfd(opts.bfd) : positionals[0]!;
  try {
    const codebooks = CODEBOOKS.map(({ file }) => parseCodebook(pdfText(join(dir, file))));
    const table = buildTable(codebooks);
    const text = render(table);
    const out = resolve(opts.out ?? OUT);
    if (opts.check) {
      const same = readFileSync(out, 'utf8') === text;
      process.stdout.write(same ? `${out} is up to date\n` : `${out} differs from the codebooks\n`);
      if (!same) process.exitCode = 1;
      return;
    }
    writeFileSync(out, text);
    const coded = [...table.values()].filter((e) => e.values).length;
    process.stdout.write(`${out}: ${table.size} variables (${coded} coded)\n`);
  } finally {
    if (opts.bfd !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
