import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { createDatasetStore } from '../plans/store/datasets.js';
import { ingestKind, ingestKinds } from '../ingest/kinds.js';
import { IngestError, type IngestSummary } from '../ingest/report.js';
import { describeBuilds, refreshBulkData } from '../ingest/bulk-data.js';
import { CommandError, wholeNumberOption, withStorage } from './context.js';

function printSummary(summary: IngestSummary): void {
  const years = summary.years.filter((y) => y !== 0);
  console.log(
    `${summary.kind}: read ${summary.read} rows, wrote ${summary.stored} table rows` +
      (years.length > 0 ? ` for ${years.join(', ')}` : '') +
      `, rejected ${summary.rejectedCount}`,
  );
  for (const r of summary.rejected) console.log(`  rejected ${r.file}:${r.line}: ${r.reason}`);
  if (summary.rejectedTruncated)
    console.log(`  … and ${summary.rejectedCount - summary.rejected.length} more`);
}

/**
 * A load is one transaction (a failed one leaves the previous data), and on SQLite a transaction holds the
 * one write lock until it ends: other writers wait (busy_timeout, 5 s) and then fail.
 */
const SQLITE_LOCK_NOTE =
  'openenroll: note: on SQLite the load holds the write lock until it ends; other writers ' +
  '(a running server\'s logins and token grants, "keys create") wait up to 5 s, then fail, while it runs';

export function registerIngestCommands(program: Command): void {
  const kinds = ingestKinds.map((f) => `  ${f.kind.padEnd(16)} ${f.summary}`).join('\n');
  program
    .command('ingest <kind> [files...]')
    .description(
      'load public data files in their published formats into the plan API; one transaction per load: ' +
        're-running replaces that dataset for that year, and a failed load leaves the previous data intact',
    )
    .option('--year <year>', "the year the data is for (default: the files' own year column or name)")
    .option('--allow-rejects <n>', 'store the load even if up to n rows are rejected (default 0)', '0')
    .option('--sample', 'label the data as sample data (files written by "openenroll sample-market")')
    .option('--json', 'print the summary as JSON')
    .option(
      '--index <url>',
      "mr-puf: an issuer's index.json URL; it and every file it lists are fetched (HTTPS)",
    )
    .addHelpText('after', `\nKinds:\n${kinds}\n`)
    .action(
      async (
        kind: string,
        files: string[],
        opts: { year?: string; allowRejects: string; json?: boolean; sample?: boolean; index?: string },
      ) => {
        if (!ingestKinds.some((k) => k.kind === kind)) {
          throw new CommandError(
            `unknown kind "${kind}"; one of: ${ingestKinds.map((f) => f.kind).join(', ')}`,
          );
        }
        if (opts.index !== undefined) {
          if (kind !== 'mr-puf') throw new CommandError('--index is for kind mr-puf');
          if (!/^https?:\/\//i.test(opts.index))
            throw new CommandError('--index: an http(s) URL is required');
          files = [...files, opts.index];
        }
        if (files.length === 0) throw new CommandError(`${kind}: give the files to load`);
        const year = wholeNumberOption('--year', opts.year, 2013, 2100);
        const allowRejects = wholeNumberOption('--allow-rejects', opts.allowRejects, 0, 1_000_000_000);
        await withStorage(async (storage) => {
          if (storage.dialect.name === 'sqlite') console.error(SQLITE_LOCK_NOTE);
          const bar = process.stderr.isTTY
            ? new cliProgress.SingleBar(
                {
                  format: `${kind} [{bar}] {percentage}% | {value}/{total} MB | ETA {eta}s`,
                  stream: process.stderr,
                },
                cliProgress.Presets.shades_classic,
              )
            : undefined;
          let started = false;
          try {
            const summary = await ingestKind(kind, files, createDatasetStore(storage.db), {
              year,
              allowRejects,
              now: Date.now(),
              onProgress: (done, total) => {
                const mb = (n: number) => Math.round((n / 1e6) * 10) / 10;
                if (!started) bar?.start(mb(total), 0);
                started = true;
                bar?.update(mb(done));
              },
            });
            bar?.stop();
            if (opts.json) console.log(JSON.stringify(summary));
            else printSummary(summary);
            // The bulk documents that read this kind, built now that the load has committed.
            const builds = (await refreshBulkData(storage.db, Date.now())).filter((b) => b.document);
            if (!opts.json) for (const line of describeBuilds(builds)) console.log(line);
          } catch (error) {
            bar?.stop();
            if (error instanceof IngestError) {
              if (error.summary && !opts.json) printSummary(error.summary);
              if (error.summary && opts.json)
                console.log(JSON.stringify({ ...error.summary, error: error.message }));
              throw new CommandError(`${kind}: ${error.message}`);
            }
            throw error;
          }
        });
      },
    );
}
