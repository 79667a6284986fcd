import assert from 'node:assert/strict';
import { connect as connectTcp, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { freePort, spawnServer, stopServer, waitHealthy, type ServerProcess } from '../helpers/processes.js';
import { createTestDatabase, redisEnv, type TestDatabase } from '../helpers/service.js';

/**
 * Graceful shutdown of a real `serve` process: on SIGTERM readiness fails at once, a request already in
 * flight (its body still arriving) is answered in full, and the process exits 0.
 */

const KEY = 'd687412e7b53146b2631dc01974ad0a4';
const SEARCH = JSON.stringify({
  place: { countyfips: '48091', state: 'TX', zipcode: '78130' },
  market: 'Individual',
  // The generated sample market is of the clock's year.
  year: new Date().getUTCFullYear(),
  household: {
    income: 40000,
    people: [{ age: 30, aptc_eligible: true, gender: 'Female', uses_tobacco: false }],
  },
});

let database: TestDatabase;
let server: ServerProcess;
before(async () => {
  database = createTestDatabase();
  // Creates the PostgreSQL schema the process will use.
  await (await database.open()).close();
  server = spawnServer('draining instance', await freePort(), {
    DATABASE_URL: database.processUrl,
    LOG_LEVEL: 'info',
    SANDBOX_ENROLLEES: '2',
    SHUTDOWN_DELAY_SECONDS: '1',
    ...redisEnv(),
  });
  await waitHealthy(server);
});
after(async () => {
  await stopServer(server);
  await database.drop();
});

/** Reads one whole HTTP/1.1 response (headers and a Content-Length body) from a raw socket. */
function readResponse(socket: Socket): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end).toString();
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length - end - 4 < length) return;
      resolve({
        status: Number(head.split(' ')[1]),
        body: data.subarray(end + 4, end + 4 + length).toString(),
      });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed before a whole answer')));
  });
}

test('SIGTERM: readiness fails, the request in flight is answered, the process exits 0', async () => {
  const port = Number(new URL(server.url).port);
  const socket = connectTcp(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const answer = readResponse(socket);
  const half = Math.floor(SEARCH.length / 2);
  socket.write(
    `POST /api/v1/plans/search?apikey=${KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(SEARCH)}\r\n\r\n` +
      SEARCH.slice(0, half),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));

  server.child.kill('SIGTERM');
  let readiness: Response | undefined;
  for (let i = 0; i < 20 && readiness?.status !== 503; i += 1) {
    readiness = await fetch(`${server.url}/health/ready`);
    if (readiness.status !== 503) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(readiness!.status, 503);
  assert.equal(((await readiness!.json()) as { status: string }).status, 'draining');
  assert.equal((await fetch(`${server.url}/health/live`)).status, 200);

  socket.write(SEARCH.slice(half));
  const { status, body } = await answer;
  assert.equal(status, 200, body);
  assert.ok((JSON.parse(body) as { plans: unknown[] }).plans.length > 0);
  socket.destroy();

  assert.equal(await server.exited, 0, server.output.join(''));
  const lines = server.output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'));
  const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
  assert.ok(messages.includes('shutting down: draining'));
  assert.ok(messages.includes('stopped'));
  await assert.rejects(fetch(`${server.url}/health/live`));
});
