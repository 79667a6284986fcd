import { Command, CommanderError } from 'commander';
import { ConfigError } from './config.js';
import { CommandError } from './commands/context.js';

type Register = (program: Command) => void;

/**
 * Each top-level command and the module that registers it. Only the named command's module is imported
 * (`serve` must not load the ingest formats, the FHIR importer and the rest of the CLI); help, no command
 * or an unknown one imports them all, so the listing and commander's suggestions stay complete.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./commands/serve.js')).registerServeCommands,
  migrate: async () => (await import('./commands/serve.js')).registerServeCommands,
  apps: async () => (await import('./commands/apps.js')).registerAppCommands,
  enrollees: async () => (await import('./commands/enrollees.js')).registerEnrolleeCommands,
  fhir: async () => (await import('./commands/fhir.js')).registerFhirCommands,
  ingest: async () => (await import('./commands/ingest.js')).registerIngestCommands,
  keys: async () => (await import('./commands/keys.js')).registerKeyCommands,
  'signing-keys': async () => (await import('./commands/signing-keys.js')).registerSigningKeyCommands,
  'sample-market': async () => (await import('./commands/sample-market.js')).registerSampleMarketCommands,
  export: async () => (await import('./commands/export.js')).registerExportCommands,
  'try-flow': async () => (await import('./commands/try-flow.js')).registerTryFlowCommand,
  'sandbox-template': async () =>
    (await import('./commands/sandbox-template.js')).registerSandboxTemplateCommand,
};

const program = new Command('openenroll')
  .description(
    'Enrollee data authorization (OAuth 2.0 + PKCE, FHIR R4) and health plan API in one service.\n' +
      'Settings come from the environment: PORT, HOST, DATABASE_URL, REDIS_URL, PUBLIC_URL, OPENENROLL_MODE, …\n' +
      '(see README.md, "Configuration").',
  )
  .showHelpAfterError()
  .exitOverride();

/**
 * Registers the named command (or all of them) and runs it. A function, not top-level code: the compiled
 * build is one CommonJS file run with V8's code cache (docs/startup.md#code-cache), which has no top-level
 * await. A failure it does not describe rejects, and Node reports it and exits with 1 as it did before.
 */
async function main(): Promise<void> {
  const named = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  const loaders =
    named !== undefined && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]!] : Object.values(COMMANDS);
  // `serve` and `migrate` share one module: registered once.
  for (const register of new Set(await Promise.all(loaders.map((load) => load())))) register(program);

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof ConfigError) {
      console.error(`openenroll: bad setting ${error.message}`);
      process.exit(2);
    }
    if (error instanceof CommandError) {
      console.error(`openenroll: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

void main();
