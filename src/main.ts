import { Command, CommanderError } from 'commander';
import { ConfigError } from './config.js';
import { registerAppCommands } from './commands/apps.js';
import { CommandError } from './commands/context.js';
import { registerEnrolleeCommands } from './commands/enrollees.js';
import { registerExportCommands } from './commands/export.js';
import { registerFhirCommands } from './commands/fhir.js';
import { registerIngestCommands } from './commands/ingest.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerSampleMarketCommands } from './commands/sample-market.js';
import { registerServeCommands } from './commands/serve.js';
import { registerSigningKeyCommands } from './commands/signing-keys.js';
import { registerTryFlowCommand } from './commands/try-flow.js';

const program = new Command('openenroll')
  .description(
    'Enrollee data authorization (OAuth 2.0 + PKCE, FHIR R4) and health plan API in one service.\n' +
      'Settings come from the environment: PORT, HOST, DATABASE_URL, REDIS_URL, PUBLIC_URL, OPENENROLL_MODE, …\n' +
      '(see README.md, "Configuration").',
  )
  .showHelpAfterError()
  .exitOverride();

registerServeCommands(program);
registerAppCommands(program);
registerEnrolleeCommands(program);
registerFhirCommands(program);
registerIngestCommands(program);
registerKeyCommands(program);
registerSigningKeyCommands(program);
registerSampleMarketCommands(program);
registerExportCommands(program);
registerTryFlowCommand(program);

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
