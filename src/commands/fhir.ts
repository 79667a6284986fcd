import type { Command } from 'commander';
import { createEnrolleeStore } from '../auth/store/enrollees.js';
import { createFhirStore } from '../auth/store/fhir.js';
import { FhirImportError, importFhir } from '../ingest/fhir.js';
import { CommandError, withStorage } from './context.js';

export function registerFhirCommands(program: Command): void {
  const fhir = program.command('fhir').description("enrollees' claims data as FHIR R4");

  fhir
    .command('import <paths...>')
    .description(
      'load FHIR R4 NDJSON files (one resource per line) or Bundles of Patient, Coverage and ' +
        'ExplanationOfBenefit; a directory means its .ndjson and .json files. All or nothing.',
    )
    .option('--json', 'print the summary as JSON')
    .action(async (paths: string[], opts: { json?: boolean }) => {
      await withStorage(async (storage) => {
        const progress = process.stderr.isTTY
          ? (n: number) => process.stderr.write(`\rimported ${n} resources…`)
          : () => {};
        try {
          const report = await importFhir(
            paths,
            { fhir: createFhirStore(storage.db), enrollees: createEnrolleeStore(storage.db) },
            Date.now(),
            progress,
          );
          if (process.stderr.isTTY) process.stderr.write('\n');
          if (opts.json) return console.log(JSON.stringify(report));
          const { Patient, Coverage, ExplanationOfBenefit } = report.counts;
          console.log(
            `imported ${report.files.length} file(s): ${Patient} Patient, ${Coverage} Coverage, ` +
              `${ExplanationOfBenefit} ExplanationOfBenefit`,
          );
          console.log(`patients linked to enrollee accounts: ${report.linkedPatients}`);
          if (report.unlinkedPatients.length > 0) {
            console.log(`patients with no enrollee account: ${report.unlinkedPatients.join(', ')}`);
          }
        } catch (error) {
          if (error instanceof FhirImportError)
            throw new CommandError(`${error.message} (nothing was imported)`);
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            throw new CommandError(`no such file: ${(error as NodeJS.ErrnoException).path}`);
          }
          throw error;
        }
      });
    });
}
