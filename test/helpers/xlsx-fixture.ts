import { zipArchive } from './zip-writer.js';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Column letters of a 0-based index: 0 → A, 27 → AB. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

export interface XlsxOptions {
  /** 0-based columns written as inline strings (`t="inlineStr"`); the others go to the shared strings. */
  inlineColumns?: number[];
}

/** The parts of a workbook with one sheet holding `rows` (the first is the header), as Excel lays them out. */
export function xlsxParts(rows: string[][], options: XlsxOptions = {}): Record<string, string> {
  const inline = new Set(options.inlineColumns ?? []);
  const shared: string[] = [];
  const indexOf = new Map<string, number>();
  const sheetRows = rows.map((cells, r) => {
    const xml = cells.map((value, c) => {
      const ref = `${columnName(c)}${r + 1}`;
      if (inline.has(c)) return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(value)}</t></is></c>`;
      let index = indexOf.get(value);
      if (index === undefined) {
        index = shared.push(value) - 1;
        indexOf.set(value, index);
      }
      return `<c r="${ref}" t="s"><v>${index}</v></c>`;
    });
    return `<row r="${r + 1}">${xml.join('')}</row>`;
  });
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  return {
    '[Content_Types].xml':
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '</Types>',
    '_rels/.rels':
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      `${xml}<workbook xmlns="${main}" xmlns:r="${rel}">` +
      '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `${xml}<worksheet xmlns="${main}"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`,
    'xl/sharedStrings.xml':
      `${xml}<sst xmlns="${main}" count="${shared.length}" uniqueCount="${shared.length}">` +
      shared.map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('') +
      '</sst>',
  };
}

/** An `.xlsx` workbook (a ZIP of the parts, deflated) with one sheet holding `rows`. */
export function xlsxWorkbook(rows: string[][], options: XlsxOptions = {}): Buffer {
  return zipArchive(Object.entries(xlsxParts(rows, options)).map(([name, data]) => ({ name, data })));
}
