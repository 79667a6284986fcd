import { randomBytes, randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { hashPassword } from '../auth/consent/login.js';
import { ensureSandboxEnrollees } from '../auth/sandbox/enrollees.js';
import { createEnrolleeStore } from '../auth/store/enrollees.js';
import { createIdentityStore, type LinkedIdentity } from '../auth/store/identities.js';
import { createPatientPort } from '../fhir/patient-port.js';
import { createFhirStore } from '../fhir/store/resources.js';
import { rifClaimSources } from '../fhir/bfd/claim-source.js';
import { CommandError, printTable, withStorage } from './context.js';

const UNLINK_HELP = `
Members who sign in through the health plan's identity provider (IDP_ISSUER) are linked to an enrollee
by the issuer and subject ("sub") of their ID token; "enrollees list" shows each enrollee's links.
Unlinking deletes that link and ends the enrollee's login sessions on every instance, in one transaction.
The enrollee and the apps it connected stay: the member's next sign-in links again, to the same enrollee
when the identity provider still says it is that patient.

Example:
  $ openenroll enrollees unlink --issuer https://login.plan.example --subject 00u1a2b3c4`;

const CREATE_HELP = `
Sandbox mode only. Makes a login for a beneficiary whose claims you loaded yourself (for example with
"openenroll ingest rif"), so you can sign in as that beneficiary and run the authorization flow against
your own data. The password is printed once and stored only as a hash; without --password a random one is
made. One login per patient.

Example:
  $ openenroll enrollees create --patient 567834 --username bene567834 --password 'Correct-Horse-1'`;

/** A random password of 16 URL-safe characters, for `enrollees create` without `--password`. */
function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

export function registerEnrolleeCommands(program: Command): void {
  const enrollees = program.command('enrollees').description('enrollee accounts');
  enrollees
    .command('create')
    .description('sandbox mode: make a login for a loaded beneficiary (Patient) so you can sign in as it')
    .requiredOption('--patient <id>', 'the Patient id of the beneficiary (the BENE_ID of its RIF records)')
    .option('--username <name>', 'the login name (default: bene<patient id>)')
    .option('--password <password>', 'the password (default: a random one, printed once)')
    .option('--json', 'print {"username","password","patient_id"} as JSON')
    .addHelpText('after', CREATE_HELP)
    .action(async (opts: { patient: string; username?: string; password?: string; json?: boolean }) => {
      await withStorage(async (storage, config) => {
        if (config.mode !== 'sandbox') {
          throw new CommandError(
            'enrollees create is for sandbox mode: in production members sign in through the plan’s identity provider',
          );
        }
        const username = (opts.username ?? `bene${opts.patient.replace(/^-/, 'n')}`).trim();
        if (username === '' || username.length > 150 || /\s/.test(username)) {
          throw new CommandError('--username must be 1 to 150 characters without spaces');
        }
        const password = opts.password ?? randomPassword();
        if (password.length < 8) throw new CommandError('--password must be at least 8 characters');
        const patient = await createPatientPort(createFhirStore(storage.db, rifClaimSources)).findPatient(
          opts.patient,
        );
        if (!patient) {
          throw new CommandError(
            `no Patient "${opts.patient}" is loaded: load its records first (openenroll ingest rif)`,
          );
        }
        const store = createEnrolleeStore(storage.db);
        const holder = await store.findEnrolleeByPatientId(patient.id);
        if (holder)
          throw new CommandError(`patient "${patient.id}" already has the login "${holder.username}"`);
        if (await store.findEnrolleeByUsername(username)) {
          throw new CommandError(`the username "${username}" is taken`);
        }
        await store.insertEnrollees(
          [
            {
              id: randomUUID(),
              username,
              passwordHash: await hashPassword(password),
              patientId: patient.id,
              givenName: patient.givenName ?? '',
              familyName: patient.familyName ?? '',
              email: null,
              sandboxPassword: null,
            },
          ],
          Date.now(),
        );
        if ((await store.findEnrolleeByUsername(username))?.patientId !== patient.id) {
          throw new CommandError(`the username "${username}" is taken`);
        }
        if (opts.json) {
          console.log(JSON.stringify({ username, password, patient_id: patient.id }));
          return;
        }
        console.log(`created the login "${username}" for patient ${patient.id}; password: ${password}`);
      });
    });
  enrollees
    .command('list')
    .description(
      'list enrollees with their linked sign-in identities; sandbox accounts show their public test password',
    )
    .option(
      '--json',
      'print JSON: [{"username","password","patient_id","identities":[{"issuer","subject","linked_at","last_sign_in_at"}]}]',
    )
    .action(async (opts: { json?: boolean }) => {
      await withStorage(async (storage, config) => {
        const store = createEnrolleeStore(storage.db);
        // The same sandbox accounts `serve` prepares, so they can be listed before the first start.
        if (config.mode === 'sandbox')
          await ensureSandboxEnrollees(
            { enrollees: store, patients: createPatientPort(createFhirStore(storage.db, rifClaimSources)) },
            config.sandboxEnrollees,
            Date.now(),
          );
        const list = await store.listEnrollees();
        const linked = new Map<string, LinkedIdentity[]>();
        for (const identity of await createIdentityStore(storage.db).listIdentities()) {
          const held = linked.get(identity.enrolleeId);
          if (held) held.push(identity);
          else linked.set(identity.enrolleeId, [identity]);
        }
        if (opts.json) {
          const iso = (ms: number) => new Date(ms).toISOString();
          const rows = list.map((e) => ({
            username: e.username,
            password: e.sandboxPassword ?? '',
            patient_id: e.patientId,
            identities: (linked.get(e.id) ?? []).map((i) => ({
              issuer: i.issuer,
              subject: i.subject,
              linked_at: iso(i.linkedAt),
              last_sign_in_at: iso(i.lastSignInAt),
            })),
          }));
          console.log(JSON.stringify(rows));
          return;
        }
        printTable(
          list.map((e) => ({
            username: e.username,
            password: e.sandboxPassword ?? '',
            patient_id: e.patientId,
            name: `${e.givenName} ${e.familyName}`,
            identities: (linked.get(e.id) ?? []).map((i) => `${i.issuer} ${i.subject}`).join(', '),
          })),
        );
      });
    });

  enrollees
    .command('unlink')
    .description('unlink an identity-provider sign-in from its enrollee and end that enrollee’s sessions')
    .requiredOption('--issuer <url>', 'the identity provider’s issuer, as "enrollees list" shows it')
    .requiredOption('--subject <sub>', 'the member’s subject ("sub") at that issuer')
    .option('--json', 'print {"issuer","subject","enrollee"} as JSON')
    .addHelpText('after', UNLINK_HELP)
    .action(async (opts: { issuer: string; subject: string; json?: boolean }) => {
      await withStorage(async (storage) => {
        const enrolleeId = await createIdentityStore(storage.db).unlinkIdentity(opts.issuer, opts.subject);
        if (!enrolleeId) {
          throw new CommandError(`no enrollee is linked to subject "${opts.subject}" of ${opts.issuer}`);
        }
        const enrollee = await createEnrolleeStore(storage.db).findEnrolleeById(enrolleeId);
        const username = enrollee?.username ?? enrolleeId;
        if (opts.json) {
          console.log(JSON.stringify({ issuer: opts.issuer, subject: opts.subject, enrollee: username }));
          return;
        }
        console.log(`unlinked ${opts.subject} of ${opts.issuer} from ${username}; its sessions are ended`);
      });
    });
}
