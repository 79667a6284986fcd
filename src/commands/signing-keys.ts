import type { Command } from 'commander';
import {
  ID_TOKEN_TTL_SECONDS,
  PREPUBLISH_SECONDS,
  publicationGraceMs,
  rotateSigningKeys,
} from '../auth/oauth/signing-keys.js';
import { createSigningKeyStore, type SigningKeyRecord } from '../auth/store/signing-keys.js';
import { printTable, withStorage } from './context.js';

type KeyState = 'next' | 'signing' | 'published' | 'expired';

function stateOf(key: SigningKeyRecord, now: number): KeyState {
  if (key.notBefore > now) return 'next';
  if (key.retiredAt === null || key.retiredAt > now) return 'signing';
  return key.retiredAt > now - publicationGraceMs(ID_TOKEN_TTL_SECONDS) ? 'published' : 'expired';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 19) + 'Z');

/** What `signing-keys list` shows of a key: never its private half. */
function describe(key: SigningKeyRecord, now: number) {
  const until = key.retiredAt === null ? null : key.retiredAt + publicationGraceMs(ID_TOKEN_TTL_SECONDS);
  return {
    kid: key.kid,
    generation: key.generation,
    alg: key.alg,
    created_at: iso(key.createdAt),
    signs_from: iso(key.notBefore),
    retired_at: iso(key.retiredAt),
    published_until: iso(until),
    state: stateOf(key, now),
  };
}

const GRACE_MINUTES = Math.round(publicationGraceMs(ID_TOKEN_TTL_SECONDS) / 60_000);

const ROTATE_HELP = `
A new key pair (RSA 2048, RS256) is generated and stored in the database, and published at
/.well-known/jwks.json at once. It starts signing ID tokens ${PREPUBLISH_SECONDS / 60} minutes later, when every client's
cached key set fetched since then holds it (with --now: at once). Every instance reads the keys from the
database, so none needs a restart.

The key it replaces stops signing then but stays published for ${GRACE_MINUTES} more minutes (the ID token
lifetime plus a margin), so the ID tokens it signed still verify until they expire. Keys whose publication
has ended are deleted, private half included.

The first key is created automatically the first time any instance needs one; rotation only replaces it.
Rotate on a schedule (e.g. every 90 days), or with --now if a private key may have been exposed. Only key
ids are printed, never key material.

Examples:
  $ openenroll signing-keys rotate
  $ openenroll signing-keys rotate --now
  $ openenroll signing-keys list --json`;

/** `openenroll signing-keys …`: the ID-token signing keys (OpenID Connect), stored in the database. */
export function registerSigningKeyCommands(program: Command): void {
  const keys = program
    .command('signing-keys')
    .description('list and rotate the keys that sign ID tokens (published at /.well-known/jwks.json)');

  keys
    .command('rotate')
    .description('add a new signing key; the old one stays published until its ID tokens expire')
    .option('--now', 'sign with the new key at once instead of after its pre-publication')
    .option('--json', 'print {"kid","generation","notBefore","retired","deleted"} as JSON')
    .addHelpText('after', ROTATE_HELP)
    .action(async (opts: { now?: boolean; json?: boolean }) => {
      await withStorage(async (storage) => {
        const rotation = await rotateSigningKeys(
          createSigningKeyStore(storage.db),
          ID_TOKEN_TTL_SECONDS,
          Date.now(),
          { immediately: opts.now === true },
        );
        if (opts.json) return console.log(JSON.stringify(rotation));
        const from = iso(rotation.notBefore);
        console.log(`new key ${rotation.kid} (generation ${rotation.generation}): signs from ${from}`);
        for (const kid of rotation.retired) {
          console.log(`${kid}: signs until ${from}, then stays published until its ID tokens expire`);
        }
        for (const kid of rotation.deleted) console.log(`deleted ${kid}: its publication had ended`);
      });
    });

  keys
    .command('list')
    .description('list signing keys (next, signing, still published, expired); never key material')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      await withStorage(async (storage) => {
        const now = Date.now();
        const list = (await createSigningKeyStore(storage.db).listAllKeys()).map((k) => describe(k, now));
        if (opts.json) return console.log(JSON.stringify(list, null, 2));
        printTable(
          list.map((k) => ({
            kid: k.kid,
            generation: String(k.generation),
            alg: k.alg,
            signs_from: k.signs_from ?? '',
            retired: k.retired_at ?? '',
            published_until: k.published_until ?? '',
            state: k.state,
          })),
        );
      });
    });
}
