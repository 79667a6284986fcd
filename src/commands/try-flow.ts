import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Option, type Command } from 'commander';
import { loadConfig } from '../config.js';
import { CommandError, wholeNumberOption, withStorage } from './context.js';

interface TryFlowOptions {
  base?: string;
  port: string;
  lang: 'en' | 'es';
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  timeout: string;
}

interface Client {
  clientId: string;
  clientSecret: string;
  /** Set when this run registered the app (so the user can delete it). */
  registered: boolean;
}

/** The redirect URI registered for throwaway apps: a loopback URI without a port matches any port (RFC 8252 §7.3). */
const LOOPBACK_REDIRECT = 'http://127.0.0.1/callback';

export function registerTryFlowCommand(program: Command): void {
  program
    .command('try-flow')
    .description(
      'walk through the authorization code flow once, as an app would: register a throwaway app, print ' +
        'the authorize URL to open in a browser, receive the redirect on a loopback port, exchange the ' +
        'code and make a first FHIR call',
    )
    .option(
      '--base <url>',
      'the running service (default: PUBLIC_URL, else http://localhost:$PORT: http://localhost:8000)',
    )
    .option('--port <n>', 'port of the loopback redirect listener on 127.0.0.1 (0: any free port)', '0')
    .addOption(
      new Option('--lang <lang>', 'language of the login and consent pages')
        .choices(['en', 'es'])
        .default('en'),
    )
    .option('--scope <scopes>', 'scopes to ask for, space-separated (default: all the app may have)')
    .option(
      '--client-id <id>',
      'use this app instead of registering one; it must list http://127.0.0.1/callback (or …:<port>/callback)',
    )
    .option('--client-secret <secret>', 'the secret of --client-id')
    .option('--timeout <seconds>', 'how long to wait for the browser', '600')
    .addHelpText(
      'after',
      '\nWithout --client-id the app is registered in the database of DATABASE_URL (the same one the service\n' +
        'at --base uses; default ./data/openenroll.db) and kept, so the printed curl line keeps working;\n' +
        'remove it with "openenroll apps delete <client_id>". Sandbox logins: "openenroll enrollees list"\n' +
        '(BBUser00000 / PW00000!).\n\nExample:\n  npx openenroll try-flow --lang es',
    )
    .action(async (opts: TryFlowOptions) => {
      const port = wholeNumberOption('--port', opts.port, 0, 65535) ?? 0;
      const timeoutSeconds = wholeNumberOption('--timeout', opts.timeout, 1, 86400) ?? 600;
      // The same settings as `serve`, so the default is the service a plain `npm start` runs.
      const given = opts.base ?? loadConfig().publicUrl;
      const base = given.replace(/\/+$/, '');
      if (!/^https?:\/\/[^/]+$/.test(base))
        throw new CommandError(`--base must be an origin like http://localhost:8000, got "${given}"`);
      if ((opts.clientId === undefined) !== (opts.clientSecret === undefined)) {
        throw new CommandError('--client-id and --client-secret go together');
      }
      const client = opts.clientId
        ? { clientId: opts.clientId, clientSecret: opts.clientSecret!, registered: false }
        : await registerThrowawayApp();
      await runFlow({ ...opts, base }, client, port, timeoutSeconds * 1000);
    });
}

async function registerThrowawayApp(): Promise<Client> {
  const { registerApp } = await import('../auth/oauth/registration.js');
  const { createAppStore } = await import('../auth/store/apps.js');
  return withStorage(async (storage) => {
    const { app, clientSecret } = await registerApp(
      createAppStore(storage.db),
      {
        name: `try-flow ${new Date().toISOString()} ${randomBytes(3).toString('hex')}`,
        redirectUris: [LOOPBACK_REDIRECT],
        dataAccessType: 'THIRTEEN_MONTH',
        requireDemographicScopes: true,
        tokenManagement: false,
      },
      Date.now(),
    );
    return { clientId: app.clientId, clientSecret, registered: true };
  });
}

/** RFC 7636 §4.1–4.2: a 43-character verifier and its S256 challenge. */
function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function runFlow(
  opts: TryFlowOptions & { base: string },
  client: Client,
  port: number,
  timeoutMs: number,
): Promise<void> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(24).toString('base64url');
  const listener = await listenLoopback(port);
  const redirectUri = `http://127.0.0.1:${(listener.server.address() as AddressInfo).port}/callback`;
  try {
    if (client.registered) {
      console.log(
        `Registered a throwaway app (13 months, personal information): client_id ${client.clientId}`,
      );
      console.log(`  (remove it later: npx openenroll apps delete ${client.clientId})`);
    }
    const query = new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      lang: opts.lang,
    });
    if (opts.scope) query.set('scope', opts.scope);
    console.log(`\nOpen this URL in a browser, log in (e.g. BBUser00000 / PW00000!) and press Connect:\n`);
    console.log(`authorize URL: ${opts.base}/v2/o/authorize/?${query}\n`);
    console.log(`Waiting for the redirect to ${redirectUri} …`);
    const callback = await waitForCallback(listener, timeoutMs);
    // RFC 6749 §10.12: the state must come back unchanged, else the redirect is not ours.
    if (callback.get('state') !== state)
      throw new CommandError('the redirect carried a different state; refused');
    const error = callback.get('error');
    if (error)
      throw new CommandError(
        `authorization refused: ${error} ${callback.get('error_description') ?? ''}`.trim(),
      );
    const code = callback.get('code');
    if (!code) throw new CommandError('the redirect carried no code');
    console.log('Got the code; state checked.\n');
    const token = await exchange(opts.base, client, code, redirectUri, verifier);
    console.log('token response:');
    console.log(JSON.stringify(token, null, 2));
    await firstCalls(opts.base, token);
  } finally {
    listener.server.close();
  }
}

interface Loopback {
  server: Server;
  callbacks: Promise<URLSearchParams>;
}

/** RFC 8252 §7.3: the redirect is received on a loopback interface, never a public one. */
function listenLoopback(port: number): Promise<Loopback> {
  let deliver!: (query: URLSearchParams) => void;
  const callbacks = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    response.end('<!doctype html><title>openenroll try-flow</title><p>Done: go back to the terminal.</p>');
    deliver(url.searchParams);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CommandError(`cannot listen on 127.0.0.1:${port}: ${error.message}`)),
    );
    server.listen(port, '127.0.0.1', () => resolve({ server, callbacks }));
  });
}

async function waitForCallback(listener: Loopback, timeoutMs: number): Promise<URLSearchParams> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CommandError(`no redirect within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([listener.callbacks, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type TokenResponse = Record<string, unknown> & { access_token: string; patient?: string };

/** RFC 6749 §4.1.3 with PKCE's code_verifier; the client authenticates with HTTP Basic (§2.3.1). */
async function exchange(base: string, client: Client, code: string, redirectUri: string, verifier: string) {
  const basic = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  );
  const response = await fetch(`${base}/v2/o/token/`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic.toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new CommandError(`the token endpoint answered ${response.status}: ${text}`);
  return JSON.parse(text) as TokenResponse;
}

/** Reads the token's Patient and counts its ExplanationOfBenefit, then shows the curl line to repeat it. */
async function firstCalls(base: string, token: TokenResponse): Promise<void> {
  const bearer = { authorization: `Bearer ${token.access_token}` };
  const patientId = token.patient;
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`, { headers: bearer });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  console.log('');
  if (patientId) {
    const patient = await get(`/v2/fhir/Patient/${encodeURIComponent(patientId)}`);
    const names = (patient.body.name as { given?: string[]; family?: string }[] | undefined) ?? [];
    const name = names[0] ? [...(names[0].given ?? []), names[0].family ?? ''].join(' ').trim() : '(no name)';
    console.log(`GET /v2/fhir/Patient/${patientId}: ${patient.status} ${name}`);
  }
  const eobPath = `/v2/fhir/ExplanationOfBenefit${patientId ? `?patient=${encodeURIComponent(patientId)}&` : '?'}_count=5`;
  const eobs = await get(eobPath);
  console.log(
    `GET ${eobPath}: ${eobs.status}, total ${String(eobs.body.total ?? eobs.body.detail ?? '?')} ExplanationOfBenefit`,
  );
  console.log('\nRepeat it with the access token (valid 10 hours):');
  console.log(`curl -H 'Authorization: Bearer ${token.access_token}' '${base}${eobPath}'`);
}
