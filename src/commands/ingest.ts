import { Option, type Command } from 'commander';
import cliProgress from 'cli-progress';
import { ingestKind, ingestKinds } from '../ingest/kinds.js';
import { IngestError, type IngestSummary } from '../ingest/engine/report.js';
import { describeBuilds, refreshBulkData } from '../ingest/bulk-data.js';
import { createFhirStore } from '../fhir/store/resources.js';
import { rifClaimSources } from '../fhir/bfd/claim-source.js';
import { CommandError, wholeNumberOption, withStorage } from './context.js';
import { noteIfLong, progressLine, summaryLines } from './ingest-output.js';

function printSummary(summary: IngestSummary): void {
  for (const line of summaryLines(summary)) console.log(line);
}

/**
 * A load is one transaction (a failed one leaves the previous data), and on SQLite a transaction holds the
 * one write lock until it ends: other writers wait (busy_timeout, 5 s) and then fail. A load that ends
 * within those 5 s can delay them but never make one fail, so the note is printed only once a load has run
 * that long (a 1-second file stays quiet).
 */
const SQLITE_LOCK_NOTE =
  'openenroll: note: on SQLite the load holds the write lock until it ends; other writers ' +
  '(a running server\'s logins and token grants, "keys create") wait up to 5 s, then fail, while it runs';
const LOCK_NOTE_AFTER_MS = 5_000;

/** The progress line on a terminal (redrawn in place, at most 10 times a second); nothing otherwise. */
function progressBar(kind: string) {
  if (!process.stderr.isTTY) return undefined;
  return new cliProgress.SingleBar({
    stream: process.stderr,
    fps: 10,
    format: (_options, params) =>
      progressLine(kind, params.value, params.total, Date.now() - params.startTime),
  });
}

export function registerIngestCommands(program: Command): void {
  const kinds = ingestKinds.map((f) => `  ${f.kind.padEnd(16)} ${f.summary}`).join('\n');
  program
    .command('ingest <kind> [files...]')
    .description(
      'load public data files in their published formats into the plan API (and, kind rif, CCW claims ' +
        'extracts into the FHIR store); one transaction per load: re-running replaces that dataset for that ' +
        'year, and a failed load leaves the previous data intact',
    )
    .option('--year <year>', "the year the data is for (default: the files' own year column or name)")
    .addOption(
      new Option('--allow-rejects <n>', 'store the load even if up to n rows are rejected').default('0', '0'),
    )
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
          const bar = progressBar(kind);
          const cancelNote =
            storage.dialect.name === 'sqlite'
              ? noteIfLong(LOCK_NOTE_AFTER_MS, () => {
                  // Above the bar: clear its line, print, and let the next update redraw it.
                  if (bar) process.stderr.write('\r\x1b[K');
                  console.error(SQLITE_LOCK_NOTE);
                })
              : () => undefined;
          let started = false;
          try {
            const summary = await ingestKind(kind, files, storage.db, {
              year,
              allowRejects,
              now: Date.now(),
              onProgress: (done, total) => {
                if (!started) bar?.start(total, 0);
                started = true;
                bar?.update(done);
              },
            });
            // Claims loaded in bulk: PostgreSQL plans their searches from fresh statistics (as after
            // `fhir import`).
            if (kind === 'rif' && storage.dialect.name === 'postgres')
              await createFhirStore(storage.db, rifClaimSources).analyze();
            cancelNote();
            bar?.stop();
            if (opts.json) console.log(JSON.stringify(summary));
            else printSummary(summary);
            // The bulk documents that read this kind, built now that the load has committed.
            const builds = (await refreshBulkData(storage.db, Date.now())).filter((b) => b.document);
            if (!opts.json) for (const line of describeBuilds(builds)) console.log(line);
          } catch (error) {
            cancelNote();
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
