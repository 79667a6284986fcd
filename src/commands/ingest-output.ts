import type { IngestSummary } from '../ingest/engine/report.js';

/** What the ingest command prints: the progress line, the summary, and when the SQLite lock note is due. */

const UNITS = [
  { name: 'kB', size: 1e3 },
  { name: 'MB', size: 1e6 },
  { name: 'GB', size: 1e9 },
];

/**
 * A byte counter scaled to the file: the unit is the largest that keeps the total at 10 or more of it
 * (a 1 MB file counts in kB), with the decimals that give the total three significant digits, so each
 * step shown is at most about 1% of the file and a small file does not sit at "0.1/1 MB".
 */
export function byteScale(total: number): (bytes: number) => string {
  const unit = [...UNITS].reverse().find((u) => total / u.size >= 10) ?? UNITS[0]!;
  const magnitude = total > 0 ? Math.floor(Math.log10(total / unit.size)) : 0;
  const decimals = Math.min(2, Math.max(0, 2 - magnitude));
  return (bytes) => `${(bytes / unit.size).toFixed(decimals)}`;
}

/** A remaining time as people read it: `45s`, `3m 05s`, `1h 02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** How long the estimate waits for a rate worth extrapolating (the first second is opening the file). */
const ETA_AFTER_MS = 1000;

/**
 * The remaining time from the rate so far, or `…` until there is one (nothing read yet, or under a second
 * in): never `INF` or `NULL`.
 */
export function estimate(done: number, total: number, elapsedMs: number): string {
  if (done >= total && total > 0) return '0s';
  if (done <= 0 || elapsedMs < ETA_AFTER_MS) return '…';
  const remaining = ((total - done) * elapsedMs) / done / 1000;
  return Number.isFinite(remaining) ? formatDuration(remaining) : '…';
}

const BAR_WIDTH = 30;

/** One progress line: `plan-attributes [████░░░░] 42.5% | 425/1000 kB | ETA 3s`. */
export function progressLine(kind: string, done: number, total: number, elapsedMs: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const bytes = byteScale(total);
  const unit = [...UNITS].reverse().find((u) => total / u.size >= 10) ?? UNITS[0]!;
  return (
    `${kind} [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(1)}% | ` +
    `${bytes(done)}/${bytes(total)} ${unit.name} | ETA ${estimate(done, total, elapsedMs)}`
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The summary lines. The first is the load's totals; when they do not add up by themselves (rows that wrote
 * nothing of their own, or rows that filled several table rows) a second says where the rows went.
 */
export function summaryLines(summary: IngestSummary): string[] {
  const years = summary.years.filter((y) => y !== 0);
  const lines = [
    `${summary.kind}: read ${summary.read} rows, wrote ${summary.stored} table rows` +
      (years.length > 0 ? ` for ${years.join(', ')}` : '') +
      `, rejected ${summary.rejectedCount}`,
  ];
  const loaded = summary.read - summary.rejectedCount - summary.skipped;
  if (loaded === 0 && summary.skipped > 0 && summary.stored > 0) {
    // Kinds such as networks and business rules write nothing per row: rows are gathered by plan or issuer
    // and written when the file ends, so "0 loaded" would read as a failed load.
    lines.push(
      `  the ${plural(summary.skipped, 'accepted row was', 'accepted rows were')} gathered into the ` +
        `${summary.stored} table rows written at the end of the load (rows of one plan or issuer become one)`,
    );
  } else if (summary.skipped > 0) {
    lines.push(
      `  of the ${summary.read} rows read: ${loaded} loaded, ${summary.rejectedCount} rejected, ` +
        `${plural(summary.skipped, 'row', 'rows')} skipped or merged (a repeat of an earlier row, a row ` +
        'this kind leaves out such as another year’s, or a row folded into totals written at the end)',
    );
  }
  if (loaded > 0 && summary.stored !== loaded) {
    lines.push(
      `  the ${plural(loaded, 'loaded row', 'loaded rows')} made ${summary.stored} table rows ` +
        '(a row can fill several tables, and totals are written once per group)',
    );
  }
  for (const r of summary.rejected) lines.push(`  rejected ${r.file}:${r.line}: ${r.reason}`);
  if (summary.rejectedTruncated)
    lines.push(`  … and ${summary.rejectedCount - summary.rejected.length} more`);
  for (const warning of summary.warnings ?? []) lines.push(`warning: ${warning}`);
  return lines;
}

/**
 * Calls `note` once if the load is still running after `afterMs`: a load that ends sooner held the SQLite
 * write lock too briefly for any other writer to have waited long. Returns the cancel.
 */
export function noteIfLong(afterMs: number, note: () => void): () => void {
  const timer = setTimeout(note, afterMs);
  timer.unref();
  return () => clearTimeout(timer);
}
