import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { followAuthorize } from './helpers/flow.js';
import {
  freePort,
  repoRoot,
  spawnServer,
  stopServer,
  waitHealthy,
  type ServerProcess,
} from './helpers/processes.js';
import { skipWithoutSharedData } from './helpers/shared-data.js';

/**
 * Every ```sh block of the README runs as written against a started service, in README order, in one bash
 * (so a block can use the variables an earlier one set, as in a terminal). The only change: the service
 * runs on a free port instead of 8000, so `http://localhost:8000` is replaced by its address (and the CLI
 * gets the same DATABASE_URL and PUBLIC_URL as the service, as it does by default from a clone). A block
 * whose first line is `# not run by the README test: <why>` is skipped; those are listed and counted here.
 * Where a block prints an authorize URL (`try-flow`, the copy-paste flow), this test plays the person at
 * the browser: it logs in and presses Connect through the real pages, then delivers the redirect —
 * to try-flow's loopback listener, or, when nothing listens there, pasted into the waiting `read`.
 */

const README = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const SKIP = /^# not run by the README test: (.+)$/;

interface Block {
  line: number;
  code: string;
  skip?: string;
}

function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i] !== '```sh') continue;
    const start = i + 1;
    let end = start;
    while (lines[end] !== '```') end += 1;
    const body = lines.slice(start, end);
    const skip = SKIP.exec(body[0] ?? '')?.[1];
    blocks.push({ line: start, code: body.join('\n'), ...(skip ? { skip } : {}) });
    i = end;
  }
  return blocks;
}

const blocks = shellBlocks(README);
const sharedDataMissing = skipWithoutSharedData(
  'geo/ZIP_COUNTY_032023.xlsx',
  'marketplace_puf/2025/plan-attributes-puf.zip',
);

describe('README examples', { skip: sharedDataMissing }, () => {
  let server: ServerProcess;
  let dir: string;
  const made = ['county-zips.json', 'bulk'].filter((p) => !existsSync(join(repoRoot, p)));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openenroll-readme-'));
    // As `npm start` does (`node bin/openenroll.js serve`), with the defaults but the database and port.
    server = spawnServer('README service', await freePort(), {
      DATABASE_URL: `sqlite:${join(dir, 'openenroll.db')}`,
      LOG_LEVEL: 'info',
    });
    await waitHealthy(server, 120_000);
    // The "ready" line is logged once the start-up summary is counted, which can come after the first answer.
    for (
      let waited = 0;
      !server.output.join('').includes('"event":"ready"') && waited < 30_000;
      waited += 100
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  after(async () => {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    // What the bulk-data example writes into the working directory.
    for (const path of made) rmSync(join(repoRoot, path), { recursive: true, force: true });
  });

  test('the blocks not run are few, and each says why', () => {
    const skipped = blocks.filter((b) => b.skip);
    assert.ok(blocks.length >= 10, `only ${blocks.length} sh blocks found`);
    assert.ok(skipped.length <= 4, `skipped: ${skipped.map((b) => `line ${b.line}`).join(', ')}`);
    for (const b of skipped) assert.ok(b.skip!.length > 20, `line ${b.line}: say why it is not run`);
    // No command block hides behind a bare fence.
    assert.doesNotMatch(README, /^```\n(npx|curl|npm) /m);
  });

  test('the start-up log says what was prepared and where the docs are', () => {
    const ready = server.output
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.event === 'ready');
    assert.ok(ready, server.output.join(''));
    assert.equal(ready.enrollees, 100);
    assert.ok(Number(ready.claimsResources) > 1000, String(ready.claimsResources));
    assert.deepEqual(ready.sampleMarketYears, [new Date().getUTCFullYear()]);
    assert.equal(ready.sandboxApiKey, 'd687412e7b53146b2631dc01974ad0a4');
    assert.equal(ready.docs, `${server.url}/docs`);
    assert.match(
      String(ready.msg),
      /100 enrollees.*FHIR claims resources.*generated sample market.*docs http/,
    );
  });

  test('every other sh block runs as written, in order, in one shell', { timeout: 300_000 }, async () => {
    const script = ['set -eo pipefail', 'curl() { command curl --fail-with-body "$@"; }'];
    blocks.forEach((b, i) => {
      if (b.skip) return;
      script.push(`printf '\\n::block %s (README line %s)\\n' ${i} ${b.line}`);
      script.push(b.code.replaceAll('http://localhost:8000', server.url));
    });
    script.push("printf '\\n::done\\n'");
    const output = await runScript(script.join('\n'), server.url, join(dir, 'openenroll.db'));
    assert.match(output, /::done/, output.slice(-4000));
    // A few answers, to be sure each part did its work (curl fails the script on any 4xx/5xx).
    assert.match(output, /"apis":\[/);
    assert.match(output, /"counties":\[\{"fips":"48209"/);
    assert.match(output, /GET \/v2\/fhir\/ExplanationOfBenefit\?patient=\S+: 200, total [1-9]\d* /);
    assert.match(output, /"access_token":"[^"]+"/);
    assert.match(output, /"resourceType":"Patient"/);
    assert.match(output, /"plans":\[\{/);
    assert.match(output, /^304$/m);
    // The real-data block: every load committed (market years of the Landscape files and the 2025 PUF).
    assert.match(output, /"current":2025,"supported":\[2014,2015,2016,2017,2025\]/);
    assert.match(output, /"code":"Z9001"/);
  });
});

/** This process's environment without the test runner's settings and the service's own. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('NODE_TEST') || k === 'NODE_OPTIONS') continue;
    if (['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'PORT', 'OPENENROLL_MODE'].includes(k)) continue;
    env[k] = v;
  }
  return env;
}

/** Runs the script in bash; drives each authorize URL it prints through the pages. */
function runScript(script: string, base: string, dbPath: string): Promise<string> {
  const child = spawn('bash', ['-c', script], {
    cwd: repoRoot,
    env: { ...cleanEnv(), DATABASE_URL: `sqlite:${dbPath}`, PUBLIC_URL: base, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let driving = Promise.resolve();
  const seen = new Set<string>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    // Whole lines only: a chunk may end in the middle of the URL.
    for (const match of output.matchAll(/(http:\/\/\S+\/v2\/o\/authorize\/\?\S+)\n/g)) {
      const url = match[1]!;
      if (seen.has(url)) continue;
      seen.add(url);
      driving = driving.then(() => drive(url, child.stdin!));
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      void driving.then(() => {
        if (code === 0) resolve(output);
        else reject(new Error(`bash exited ${code}:\n${output.slice(-6000)}`));
      }, reject);
    });
  });
}

/** The person at the browser: log in, press Connect, then the redirect reaches the app. */
async function drive(url: string, stdin: NodeJS.WritableStream): Promise<void> {
  const { location } = await followAuthorize(url);
  try {
    // try-flow listens on the loopback redirect URI.
    const response = await fetch(location);
    await response.arrayBuffer();
  } catch {
    // Nothing listens there (the copy-paste flow): the person pastes the address from the browser.
    stdin.write(`${location.href}\n`);
  }
}
