function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Fixture rows as CSV text the way the published files are written: CRLF line ends, quotes only where a
 * cell needs them. The header is the union of the rows' keys in first-seen order unless given; `bom`
 * starts the text with a UTF-8 byte-order mark.
 */
export function csvText(
  rows: Record<string, string>[],
  options: { bom?: boolean; header?: readonly string[] } = {},
): string {
  const header = options.header ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))].map((cells) =>
    cells.map(quote).join(','),
  );
  return `${options.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}
