import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { ensureSandboxEnrollees } from '../auth/sandbox/enrollees.js';
import { createEnrolleeStore } from '../auth/store/enrollees.js';
import { createPatientPort } from '../fhir/patient-port.js';
import { createFhirStore } from '../fhir/store/resources.js';
import { rifClaimSources } from '../fhir/bfd/claim-source.js';
import { FhirImportError, importFhir } from '../ingest/fhir.js';
import { writeSyntheticRif } from '../ingest/rif/synthetic/write.js';
import { SANDBOX_SEED, writeSyntheticNdjson } from '../ingest/sandbox-claims.js';
import { CommandError, withStorage } from './context.js';

export function registerFhirCommands(program: Command): void {
  const fhir = program.command('fhir').description("enrollees' claims data as FHIR R4");

  fhir
    .command('generate')
    .description(
      'write deterministic SYNTHETIC sample data for the sandbox enrollees BBUser00000…: as NDJSON (the ' +
        'default: Patient, Coverage, ExplanationOfBenefit and the Organizations and Practitioners they refer ' +
        'to, in the CARIN Blue Button 2.0.0 profiles, tagged as synthetic; load it with "fhir import") or, ' +
        'with --format rif, as CCW RIF files, one per record type (what the sandbox loads at its first start, ' +
        'through "ingest rif")',
    )
    .option('--enrollees <n>', 'how many sandbox enrollees, from BBUser00000', '100')
    .option('--seed <s>', 'generator seed: the same seed gives the same data', String(SANDBOX_SEED))
    .addOption(
      new Option('--format <format>', 'ndjson: one NDJSON file; rif: a directory of RIF files')
        .choices(['ndjson', 'rif'])
        .default('ndjson'),
    )
    .requiredOption('--out <path>', 'NDJSON file to write, or with --format rif the directory to write into')
    .action(async (opts: { enrollees: string; seed: string; format: 'ndjson' | 'rif'; out: string }) => {
      const enrollees = Number(opts.enrollees);
      const seed = Number(opts.seed);
      if (!Number.isInteger(enrollees) || enrollees < 1 || enrollees > 100000) {
        throw new CommandError(
          `--enrollees must be a whole number from 1 to 100000, got "${opts.enrollees}"`,
        );
      }
      if (!Number.isSafeInteger(seed))
        throw new CommandError(`--seed must be a whole number, got "${opts.seed}"`);
      if (opts.format === 'rif') {
        const files = await writeSyntheticRif(opts.out, enrollees, seed);
        const records = files.reduce((n, f) => n + f.records, 0);
        console.log(
          `wrote ${records} synthetic RIF records for ${enrollees} enrollees to ${opts.out} ` +
            `(${files.length} files: ${files.map((f) => `${basename(f.path)} ${f.records}`).join(', ')})`,
        );
        return;
      }
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
            { enrollees, patients: createPatientPort(createFhirStore(storage.db, rifClaimSources)) },
            config.sandboxEnrollees,
            Date.now(),
          );
        const progress = process.stderr.isTTY
          ? (n: number) => process.stderr.write(`\rimported ${n} resources…`)
          : () => {};
        try {
          const fhirStore = createFhirStore(storage.db, rifClaimSources);
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
