import type { Command } from 'commander';
import { registerApp, RegistrationError } from '../auth/oauth/registration.js';
import {
  createAppStore,
  DATA_ACCESS_TYPES,
  DuplicateAppNameError,
  type ClientApp,
  type DataAccessType,
} from '../auth/store/apps.js';
import { CommandError, printTable, withStorage } from './context.js';

const ACCESS_LABEL: Record<DataAccessType, string> = {
  ONE_TIME: '10 hours',
  THIRTEEN_MONTH: '13 months',
  RESEARCH_STUDY: 'Research',
};

function describe(app: ClientApp) {
  return {
    client_id: app.clientId,
    name: app.name,
    active: app.active,
    review: app.review,
    data_access_type: app.dataAccessType,
    access_duration: ACCESS_LABEL[app.dataAccessType],
    require_demographic_scopes: app.requireDemographicScopes,
    redirect_uris: app.redirectUris,
    scopes: app.scopes,
    created_at: new Date(app.createdAt).toISOString(),
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function findOrFail(
  clientId: string,
  find: (id: string) => Promise<ClientApp | undefined>,
): Promise<ClientApp> {
  const app = await find(clientId);
  if (!app) throw new CommandError(`no app with client id ${clientId}`);
  return app;
}

export function registerAppCommands(program: Command): void {
  const apps = program.command('apps').description('register and manage client applications');

  apps
    .command('create')
    .description('register a confidential client; prints its client id and secret once')
    .requiredOption('--name <name>', 'application name shown to enrollees (unique)')
    .requiredOption('--redirect-uri <uri>', 'registered callback; repeat for several', collect)
    .option('--access <type>', `access duration: ${DATA_ACCESS_TYPES.join('|')}`, 'THIRTEEN_MONTH')
    .requiredOption('--demographic <yes|no>', 'whether the app collects enrollee personal information')
    .option('--policy-uri <url>', 'privacy policy link shown on the consent page')
    .option('--tos-uri <url>', 'terms link shown on the consent page')
    .option(
      '--token-management',
      "the plan's own member portal: may list and revoke enrollees' connected apps",
    )
    .option('--json', 'print {"client_id","client_secret"} as JSON')
    .action(async (opts) => {
      if (!DATA_ACCESS_TYPES.includes(opts.access)) {
        throw new CommandError(
          `--access must be one of ${DATA_ACCESS_TYPES.join(', ')}, got "${opts.access}"`,
        );
      }
      if (!['yes', 'no'].includes(opts.demographic)) {
        throw new CommandError(`--demographic must be yes or no, got "${opts.demographic}"`);
      }
      await withStorage(async (storage) => {
        try {
          const { app, clientSecret } = await registerApp(
            createAppStore(storage.db),
            {
              name: opts.name,
              redirectUris: opts.redirectUri,
              dataAccessType: opts.access,
              requireDemographicScopes: opts.demographic === 'yes',
              policyUri: opts.policyUri,
              tosUri: opts.tosUri,
              tokenManagement: Boolean(opts.tokenManagement),
            },
            Date.now(),
          );
          if (opts.json) {
            console.log(JSON.stringify({ client_id: app.clientId, client_secret: clientSecret }));
          } else {
            console.log(`client_id:     ${app.clientId}\nclient_secret: ${clientSecret}`);
            console.log('The secret is shown only now; store it safely.');
          }
        } catch (error) {
          if (error instanceof RegistrationError || error instanceof DuplicateAppNameError) {
            throw new CommandError(error.message);
          }
          throw error;
        }
      });
    });

  apps
    .command('list')
    .description('list registered applications')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      await withStorage(async (storage) => {
        const list = await createAppStore(storage.db).listApps();
        if (opts.json) return console.log(JSON.stringify(list.map(describe), null, 2));
        printTable(
          list.map((a) => ({
            client_id: a.clientId,
            name: a.name,
            access: ACCESS_LABEL[a.dataAccessType],
            demographic: a.requireDemographicScopes ? 'yes' : 'no',
            active: a.active ? 'yes' : 'no',
            review: a.review,
          })),
        );
      });
    });

  apps
    .command('show <client_id>')
    .description('show one application (never its secret)')
    .action(async (clientId: string) => {
      await withStorage(async (storage) => {
        const app = await findOrFail(clientId, createAppStore(storage.db).findApp);
        console.log(JSON.stringify(describe(app), null, 2));
      });
    });

  for (const [name, active] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    apps
      .command(`${name} <client_id>`)
      .description(
        active ? 'allow the app to authorize and use tokens again' : 'block the app everywhere at once',
      )
      .action(async (clientId: string) => {
        await withStorage(async (storage) => {
          if (!(await createAppStore(storage.db).setAppActive(clientId, active, Date.now()))) {
            throw new CommandError(`no app with client id ${clientId}`);
          }
          console.log(`${clientId} ${active ? 'enabled' : 'disabled'}`);
        });
      });
  }

  // A portal app registered in production waits for an operator (docs/portal.md#review).
  for (const [name, to, help] of [
    ['approve', 'approved', 'let a pending app be authorized by enrollees'],
    ['reject', 'rejected', 'refuse a pending app: it is never authorized'],
  ] as const) {
    apps
      .command(`${name} <client_id>`)
      .description(help)
      .action(async (clientId: string) => {
        await withStorage(async (storage) => {
          const store = createAppStore(storage.db);
          const app = await findOrFail(clientId, store.findApp);
          if (!(await store.setReview(clientId, ['pending'], to, Date.now()))) {
            throw new CommandError(`${clientId} is ${app.review}, not pending`);
          }
          console.log(`${clientId} ${to}`);
        });
      });
  }

  apps
    .command('delete <client_id>')
    .description('delete the app with its grants and tokens')
    .action(async (clientId: string) => {
      await withStorage(async (storage) => {
        if (!(await createAppStore(storage.db).deleteApp(clientId))) {
          throw new CommandError(`no app with client id ${clientId}`);
        }
        console.log(`${clientId} deleted`);
      });
    });
}
