/**
 * Regenerates src/plans/tables/oopc-utilization-2014.ts from the workbook CMS published with its
 * out-of-pocket cost model: `OOPCCalcV37D20160527C3EXP.xlsm` in https://github.com/CMSgov/oopc-calculations,
 * initial commit febbfe583a5b65f0a7adcbae0c26b4190a2465db (US-government work; CC0 1.0 waiver in the
 * repository's LICENSE.md). It copies the sheet "Utilization Table", rows 4–3891: for each age group, sex
 * and spending decile, the mean allowed cost per unit and the units per member-year of 27 service
 * categories. Numbers are the cells' stored doubles, written as the shortest decimal that reads back to the
 * same double; nothing is recomputed.
 *
 *   git show febbfe5:OOPCCalcV37D20160527C3EXP.xlsm > oopc.xlsm   # in a clone of the repository
 *   node --import tsx scripts/oopc-utilization.ts oopc.xlsm
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import { SaxesParser } from 'saxes';
import { openZipEntry } from '../src/ingest/sources/zip-entry.js';

const OUT = resolve(import.meta.dirname, '..', 'src', 'plans', 'tables', 'oopc-utilization-2014.ts');
const SHEET = 'Utilization Table';
const FIRST_ROW = 4;
const LAST_ROW = 3891;
/** The workbook's blob in the repository, as published (sha256 of its bytes). */
const WORKBOOK_SHA256 = 'b3b0415850633c5591dc918cc4604a5ff1c00f1a5a0cda5466186f133aa93ca8';

async function entryText(file: string, name: string): Promise<string> {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const { stream } = await openZipEntry(file, new RegExp(`^${escaped}$`));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every element of a part as (name, attributes, text), in document order. */
function elements(xml: string): { name: string; attrs: Record<string, string>; text: string }[] {
  const parser = new SaxesParser();
  const out: { name: string; attrs: Record<string, string>; text: string }[] = [];
  const open: { name: string; attrs: Record<string, string>; text: string }[] = [];
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attrs: tag.attributes as Record<string, string>, text: '' };
    open.push(element);
    out.push(element);
  });
  parser.on('text', (text) => {
    const top = open[open.length - 1];
    if (top) top.text += text;
  });
  parser.on('closetag', () => void open.pop());
  parser.write(xml).close();
  return out;
}

/** The worksheet part of the sheet named `sheet`, through the workbook and its relationships. */
async function sheetPart(file: string, sheet: string): Promise<string> {
  const book = elements(await entryText(file, 'xl/workbook.xml'));
  const id = book.find((e) => e.name === 'sheet' && e.attrs.name === sheet)?.attrs['r:id'];
  if (!id) throw new Error(`the workbook has no sheet named "${sheet}"`);
  const rels = elements(await entryText(file, 'xl/_rels/workbook.xml.rels'));
  const target = rels.find((e) => e.name === 'Relationship' && e.attrs.Id === id)?.attrs.Target;
  if (!target) throw new Error(`no relationship ${id}`);
  return `xl/${target.replace(/^\/?xl\//, '')}`;
}

async function sharedStrings(file: string): Promise<string[]> {
  const strings: string[] = [];
  let current: string | undefined;
  for (const e of elements(await entryText(file, 'xl/sharedStrings.xml'))) {
    if (e.name === 'si') {
      if (current !== undefined) strings.push(current);
      current = '';
    } else if (e.name === 't' && current !== undefined) current += e.text;
  }
  if (current !== undefined) strings.push(current);
  return strings;
}

/** Rows `FIRST_ROW`…`LAST_ROW` of the sheet as column letter → stored value (strings resolved). */
async function sheetRows(file: string): Promise<Map<number, Map<string, string>>> {
  const strings = await sharedStrings(file);
  const rows = new Map<number, Map<string, string>>();
  let row: Map<string, string> | undefined;
  let column = '';
  let type = '';
  for (const e of elements(await entryText(file, await sheetPart(file, SHEET)))) {
    if (e.name === 'row') {
      const number = Number(e.attrs.r);
      row = number >= FIRST_ROW && number <= LAST_ROW ? new Map() : undefined;
      if (row) rows.set(number, row);
    } else if (e.name === 'c') {
      column = (e.attrs.r ?? '').replace(/\d+$/, '');
      type = e.attrs.t ?? 'n';
    } else if (e.name === 'v' && row) {
      row.set(column, type === 's' ? strings[Number(e.text)]! : e.text);
    }
  }
  return rows;
}

interface Cell {
  ageGroup: string;
  sex: string;
  decile: number;
  people: number;
  values: number[];
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('give the path of OOPCCalcV37D20160527C3EXP.xlsm');
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (sha !== WORKBOOK_SHA256) throw new Error(`${file} is not the published workbook (sha256 ${sha})`);
  const rows = await sheetRows(file);
  const services: string[] = [];
  const cells: Cell[] = [];
  for (let r = FIRST_ROW; r <= LAST_ROW; r++) {
    const row = rows.get(r);
    if (!row) throw new Error(`row ${r} is missing`);
    const [ageGroup, sex, level, people, service] = ['B', 'C', 'E', 'F', 'G'].map((c) => row.get(c) ?? '');
    const decile = /^Decile (\d+(?:\.5)?)$/.exec(level!)?.[1];
    if (!decile || !/^(F|M)$/.test(sex!)) throw new Error(`row ${r}: "${level}" "${sex}" is no decile row`);
    const [unitCost, units] = ['H', 'I'].map((c) => Number(row.get(c) ?? 'NaN'));
    if (!Number.isFinite(unitCost) || !Number.isFinite(units)) throw new Error(`row ${r}: not numbers`);
    let cell = cells[cells.length - 1];
    if (!cell || cell.ageGroup !== ageGroup || cell.sex !== sex || cell.decile !== Number(decile)) {
      cell = { ageGroup: ageGroup!, sex: sex!, decile: Number(decile), people: Number(people), values: [] };
      cells.push(cell);
    }
    // Every cell lists the same services in the same order; the first cell names them.
    const index = cell.values.length / 2;
    if (cells.length === 1) services.push(service!);
    else if (services[index] !== service)
      throw new Error(`row ${r}: ${service} where ${services[index]} was`);
    if (Number(people) !== cell.people) throw new Error(`row ${r}: No Obs differs within its cell`);
    cell.values.push(unitCost!, units!);
  }
  const text = [
    '// Generated by scripts/oopc-utilization.ts from the published workbook; do not edit by hand.',
    '',
    '/**',
    ' * The utilization table of CMS\'s out-of-pocket cost (OOPC) model, built by LMI from 2014 claims ("3/7/16',
    ' * Run"): for each age group, sex and spending decile of people, the mean allowed cost per unit and the mean',
    ' * units per member-year of each service category. Deciles rank people by spending within their age group',
    ' * and sex; some low deciles are pooled into the lowest row given (e.g. males 18–25 start at decile 4, which',
    ' * stands for deciles 1–4). `5.5` is the mean of deciles 5 and 6. US-government work, CC0 1.0.',
    ' */',
    'export const OOPC_UTILIZATION_SOURCE = {',
    "  repository: 'https://github.com/CMSgov/oopc-calculations',",
    "  commit: 'febbfe583a5b65f0a7adcbae0c26b4190a2465db',",
    "  file: 'OOPCCalcV37D20160527C3EXP.xlsm',",
    `  sha256: '${WORKBOOK_SHA256}',`,
    `  sheet: '${SHEET}',`,
    `  rows: '${FIRST_ROW}-${LAST_ROW}',`,
    "  licence: 'US-government work; CC0 1.0 Universal (LICENSE.md of the repository)',",
    '} as const;',
    '',
    '/** The sheet\'s service categories (column "Service"), in its order. */',
    `export const OOPC_TABLE_SERVICES = ${JSON.stringify(services)} as const;`,
    '',
    '/**',
    ' * One entry per (age group, sex, decile), in sheet order: the people observed ("No Obs"), then for each',
    ' * service of `OOPC_TABLE_SERVICES` in order its unit cost (dollars) and units per member-year.',
    ' */',
    'export const OOPC_UTILIZATION_2014: readonly (readonly [',
    '  ageGroup: string,',
    "  sex: 'F' | 'M',",
    '  decile: number,',
    '  people: number,',
    '  values: readonly number[],',
    '])[] = [',
    ...cells.map(
      (c) =>
        `  [${JSON.stringify(c.ageGroup)}, '${c.sex}', ${c.decile}, ${c.people}, [${c.values.map(String).join(', ')}]],`,
    ),
    '];',
    '',
  ].join('\n');
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  writeFileSync(OUT, await prettier.format(text, { ...options, filepath: OUT }));
  console.log(`${OUT}: ${cells.length} cells × ${services.length} services`);
}

await main();
