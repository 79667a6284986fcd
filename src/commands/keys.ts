import type { Command } from 'commander';
import { createApiKeyStore, type ApiKey } from '../plans/store/api-keys.js';
import { CommandError, printTable, wholeNumberOption, withStorage } from './context.js';

const DAY_MS = 86_400_000;

type KeyState = 'active' | 'revoked' | 'expired';

function stateOf(key: ApiKey, now: number): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  return 'active';
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What `keys list` shows of a key: never the key itself nor its hash. */
function describe(key: ApiKey, now: number) {
  return {
    id: key.id,
    name: key.name,
    per_second: key.perSecond,
    per_minute: key.perMinute,
    created_at: new Date(key.createdAt).toISOString(),
    expires_at: isoOrNull(key.expiresAt),
    revoked_at: isoOrNull(key.revokedAt),
    state: stateOf(key, now),
  };
}

interface CreateOptions {
  name: string;
  perSecond?: string;
  perMinute?: string;
  expiresInDays?: string;
  json?: boolean;
}

/** `openenroll keys …`: plan-API keys, stored hashed, each with its own per-second and per-minute limits. */
export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('create, list and revoke plan-API keys');

  keys
    .command('create')
    .description('create a plan-API key; prints the key once (only its hash is stored)')
    .requiredOption('--name <name>', 'who the key is for (shown by "keys list")')
    .option('--per-second <n>', 'requests allowed per second (default: API_RATE_PER_SECOND)')
    .option('--per-minute <n>', 'requests allowed per minute (default: API_RATE_PER_MINUTE)')
    .option('--expires-in-days <d>', 'the key stops working after d days (default: never)')
    .option('--json', 'print {"key","id"} as JSON')
    .action(async (opts: CreateOptions) => {
      const name = opts.name.trim();
      if (name === '') throw new CommandError('--name must not be empty');
      const perSecond = wholeNumberOption('--per-second', opts.perSecond, 1, 1_000_000);
      const perMinute = wholeNumberOption('--per-minute', opts.perMinute, 1, 100_000_000);
      const days = wholeNumberOption('--expires-in-days', opts.expiresInDays, 1, 36_500);
      await withStorage(async (storage, config) => {
        const now = Date.now();
        const { key, record } = await createApiKeyStore(storage.db).createKey(
          {
            name,
            perSecond: perSecond ?? config.apiRatePerSecond,
            perMinute: perMinute ?? config.apiRatePerMinute,
            expiresAt: days === undefined ? null : now + days * DAY_MS,
          },
          now,
        );
        if (opts.json) {
          console.log(JSON.stringify({ key, id: record.id }));
          return;
        }
        console.log(`id:  ${record.id}\nkey: ${key}`);
        console.log(
          `limits: ${record.perSecond}/second, ${record.perMinute}/minute; ` +
            `expires: ${isoOrNull(record.expiresAt) ?? 'never'}`,
        );
        console.log('The key is shown only now; store it safely.');
      });
    });

  keys
    .command('list')
    .description('list keys with their limits and state (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withStorage(async (storage) => {
        const now = Date.now();
        const list = (await createApiKeyStore(storage.db).listKeys()).map((k) => describe(k, now));
        if (opts.json) return console.log(JSON.stringify(list, null, 2));
        printTable(
          list.map((k) => ({
            id: k.id,
            name: k.name,
            per_second: String(k.per_second),
            per_minute: String(k.per_minute),
            created: k.created_at.slice(0, 19).replace('T', ' '),
            expires: k.expires_at?.slice(0, 19).replace('T', ' ') ?? 'never',
            state: k.state,
          })),
        );
      });
    });

  keys
    .command('revoke <id>')
    .description('revoke a key: every instance refuses it from the next request on')
    .action(async (id: string) => {
      await withStorage(async (storage) => {
        const store = createApiKeyStore(storage.db);
        if (await store.revokeKey(id, Date.now())) {
          console.log(`${id} revoked`);
          return;
        }
        const known = (await store.listKeys()).some((k) => k.id === id);
        if (!known) throw new CommandError(`no API key with id ${id} (see "openenroll keys list")`);
        console.log(`${id} was already revoked`);
      });
    });
}
