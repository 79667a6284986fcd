import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { followAuthorize } from './helpers/flow.js';
import { runCli } from './helpers/cli.js';
import { repoRoot } from './helpers/processes.js';
import { startService, type RunningService } from './helpers/service.js';

/** `openenroll try-flow` end to end: the person at the browser is played with plain HTTP requests. */

interface TryFlow {
  child: ChildProcess;
  output: () => string;
  /** The authorize URL the command printed. */
  authorizeUrl: Promise<string>;
  exited: Promise<number | null>;
}

function startTryFlow(running: RunningService, args: string[]): TryFlow {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('NODE_TEST') && k !== 'NODE_OPTIONS') env[k] = v;
  }
  const child = spawn(process.execPath, ['bin/openenroll.js', 'try-flow', '--base', running.url, ...args], {
    cwd: repoRoot,
    env: { ...env, DATABASE_URL: running.database.processUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let found!: (url: string) => void;
  const authorizeUrl = new Promise<string>((resolve) => (found = resolve));
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    const match = /^authorize URL: (\S+)\n/m.exec(output);
    if (match) found(match[1]!);
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then(() => found(''));
  return { child, output: () => output, authorizeUrl, exited };
}

describe('openenroll try-flow', () => {
  let running: RunningService;
  before(async () => {
    running = await startService({ SAMPLE_MARKET: 'false' });
  });
  after(() => running.close());

  test('registers an app, receives the redirect on loopback, exchanges the code and reads the data', async () => {
    const flow = startTryFlow(running, ['--lang', 'es']);
    const url = await flow.authorizeUrl;
    assert.ok(url, flow.output());
    const query = new URL(url).searchParams;
    assert.match(query.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.equal(query.get('lang'), 'es');
    assert.ok(query.get('state')!.length >= 16);
    const { location } = await followAuthorize(url, { username: 'BBUser00001', password: 'PW00001!' });
    const callback = await fetch(location);
    assert.equal(callback.status, 200);
    await callback.text();
    assert.equal(await flow.exited, 0, flow.output());
    const out = flow.output();
    const clientId = /client_id (\S+)/.exec(out)?.[1];
    assert.ok(clientId, out);
    assert.match(out, /"access_token": "[^"]+"/);
    assert.match(out, /"refresh_token": "[^"]+"/);
    assert.match(out, /GET \/v2\/fhir\/Patient\/\S+: 200 \S/);
    assert.match(
      out,
      /GET \/v2\/fhir\/ExplanationOfBenefit\?patient=\S+: 200, total [1-9]\d* ExplanationOfBenefit/,
    );
    // The printed curl line works as printed.
    const curl = /curl -H 'Authorization: Bearer ([^']+)' '([^']+)'/.exec(out);
    assert.ok(curl, out);
    const again = await fetch(curl[2]!, { headers: { authorization: `Bearer ${curl[1]}` } });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { resourceType: string }).resourceType, 'Bundle');
    // The throwaway app is a real, listed app the user can delete.
    const show = await runCli(running.database.processUrl, ['apps', 'show', clientId]);
    assert.equal(show.code, 0, show.stderr);
  });

  test('refuses a redirect whose state is not its own, and exchanges nothing', async () => {
    const flow = startTryFlow(running, ['--timeout', '60']);
    const url = await flow.authorizeUrl;
    assert.ok(url, flow.output());
    const { location } = await followAuthorize(url);
    location.searchParams.set('state', 'someone-elses-state-value');
    await (await fetch(location)).text();
    assert.equal(await flow.exited, 1);
    assert.match(flow.output(), /different state; refused/);
    assert.doesNotMatch(flow.output(), /access_token/);
  });

  test('says how to use it', async () => {
    const help = await runCli(running.database.processUrl, ['try-flow', '--help']);
    assert.equal(help.code, 0);
    for (const option of ['--base', '--port', '--lang', '--scope', '--client-id', 'apps delete']) {
      assert.ok(help.stdout.includes(option), `${option} missing from:\n${help.stdout}`);
    }
    const bad = await runCli(running.database.processUrl, ['try-flow', '--lang', 'fr']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /en, es|"en", "es"/);
  });
});
