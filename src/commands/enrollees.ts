import type { Command } from 'commander';
import { ensureSandboxEnrollees } from '../auth/sandbox/enrollees.js';
import { createEnrolleeStore } from '../auth/store/enrollees.js';
import { printTable, withStorage } from './context.js';

export function registerEnrolleeCommands(program: Command): void {
  const enrollees = program.command('enrollees').description('enrollee accounts');
  enrollees
    .command('list')
    .description('list enrollees; sandbox accounts show their public test password')
    .option('--json', 'print JSON: [{"username","password","patient_id"}]')
    .action(async (opts) => {
      await withStorage(async (storage, config) => {
        const store = createEnrolleeStore(storage.db);
        // The same sandbox accounts `serve` prepares, so they can be listed before the first start.
        if (config.mode === 'sandbox')
          await ensureSandboxEnrollees(store, config.sandboxEnrollees, Date.now());
        const list = await store.listEnrollees();
        const rows = list.map((e) => ({
          username: e.username,
          password: e.sandboxPassword ?? '',
          patient_id: e.patientId,
          name: `${e.givenName} ${e.familyName}`,
        }));
        if (opts.json) {
          console.log(
            JSON.stringify(
              rows.map(({ username, password, patient_id }) => ({ username, password, patient_id })),
            ),
          );
        } else {
          printTable(rows);
        }
      });
    });
}
