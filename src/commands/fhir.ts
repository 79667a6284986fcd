import type { Command } from 'commander';
import { ensureSandboxEnrollees } from '../auth/sandbox/enrollees.js';
import { createEnrolleeStore } from '../auth/store/enrollees.js';
import { createPatientPort } from '../fhir/patient-port.js';
import { createFhirStore } from '../fhir/store/resources.js';
import { FhirImportError, importFhir } from '../ingest/fhir.js';
import { SANDBOX_SEED, writeSyntheticNdjson } from '../ingest/sandbox-claims.js';
import { CommandError, withStorage } from './context.js';

export function registerFhirCommands(program: Command): void {
  const fhir = program.command('fhir').description("enrollees' claims data as FHIR R4");

  fhir
    .command('generate')
    .description(
      'write deterministic SYNTHETIC sample data (Patient, Coverage, ExplanationOfBenefit of the sandbox ' +
        'enrollees BBUser00000…, and the Organizations and Practitioners they refer to) as NDJSON in the ' +
        'CARIN Blue Button 2.0.0 profiles, tagged as synthetic; load it with "fhir import"',
    )
    .option('--enrollees <n>', 'how many sandbox enrollees, from BBUser00000', '100')
    .option('--seed <s>', 'generator seed: the same seed gives the same data', String(SANDBOX_SEED))
    .requiredOption('--out <file>', 'NDJSON file to write')
    .action(async (opts: { enrollees: string; seed: string; out: string }) => {
      const enrollees = Number(opts.enrollees);
      const seed = Number(opts.seed);
      if (!Number.isInteger(enrollees) || enrollees < 1 || enrollees > 100000) {
        throw new CommandError(
          `--enrollees must be a whole number from 1 to 100000, got "${opts.enrollees}"`,
        );
      }
      if (!Number.isInteger(seed))
        throw new CommandError(`--seed must be a whole number, got "${opts.seed}"`);
      const count = await writeSyntheticNdjson(opts.out, enrollees, seed);
      console.log(`wrote ${count} synthetic resources for ${enrollees} enrollees to ${opts.out}`);
    });

  fhir
    .command('import <paths...>')
    .description(
      'load FHIR R4 NDJSON files (one resource per line) or Bundles of Patient, Coverage, ' +
        'ExplanationOfBenefit, Organization and Practitioner; a resource claiming a CARIN Blue Button ' +
        '(C4BB) profile must meet its required elements; a directory means its .ndjson and .json files. ' +
        'All or nothing.',
    )
    .option('--json', 'print the summary as JSON')
    .action(async (paths: string[], opts: { json?: boolean }) => {
      await withStorage(async (storage, config) => {
        const enrollees = createEnrolleeStore(storage.db);
        // Sandbox: the accounts the sample Patients belong to exist before the import links to them.
        if (config.mode === 'sandbox')
          await ensureSandboxEnrollees(
            { enrollees, patients: createPatientPort(createFhirStore(storage.db)) },
            config.sandboxEnrollees,
            Date.now(),
          );
        const progress = process.stderr.isTTY
          ? (n: number) => process.stderr.write(`\rimported ${n} resources…`)
          : () => {};
        try {
          const fhirStore = createFhirStore(storage.db);
          const report = await importFhir(paths, { fhir: fhirStore, enrollees }, Date.now(), progress);
          if (storage.dialect.name === 'postgres') await fhirStore.analyze();
          if (process.stderr.isTTY) process.stderr.write('\n');
          if (opts.json) return console.log(JSON.stringify(report));
          const { Patient, Coverage, ExplanationOfBenefit, Organization, Practitioner } = report.counts;
          console.log(
            `imported ${report.files.length} file(s): ${Patient} Patient, ${Coverage} Coverage, ` +
              `${ExplanationOfBenefit} ExplanationOfBenefit, ${Organization} Organization, ` +
              `${Practitioner} Practitioner`,
          );
          console.log(`patients linked to enrollee accounts: ${report.linkedPatients}`);
          if (report.unlinkedPatients.length > 0) {
            const shown = report.unlinkedPatients.slice(0, 10).join(', ');
            const more = report.unlinkedPatients.length - 10;
            console.log(`patients with no enrollee account: ${shown}${more > 0 ? ` and ${more} more` : ''}`);
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
