import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { startService, type RunningService } from '../helpers/service.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { authorizeStatus, createPortalApp, verifiedDeveloper } from './portal-flow.js';

/**
 * The operator's review of portal apps through the real CLI (`openenroll apps approve|reject`), run as its
 * own process against the database of a production-mode service whose portal registered the apps.
 */

let running: RunningService;
let mailbox: Mailbox;

before(async () => {
  mailbox = await startMailbox();
  running = await startService({ OPENENROLL_MODE: 'production', SMTP_URL: mailbox.url });
});
after(async () => {
  await running?.close();
  await mailbox?.close();
});

const cli = (...args: string[]) => runCli(running.database.processUrl, args);

interface Listed {
  client_id: string;
  review: string;
  active: boolean;
}

async function reviewOf(clientId: string): Promise<string | undefined> {
  const listed = await cli('apps', 'list', '--json');
  assert.equal(listed.code, 0, listed.stderr);
  return (JSON.parse(listed.stdout) as Listed[]).find((app) => app.client_id === clientId)?.review;
}

describe('openenroll apps approve|reject', () => {
  test('a pending portal app: approve lets authorize accept it; it cannot be reviewed twice', async () => {
    const { browser } = await verifiedDeveloper(running.url, mailbox);
    const { clientId } = await createPortalApp(browser, { name: 'Reviewed By CLI' });
    assert.equal(await reviewOf(clientId), 'pending');
    assert.equal(await authorizeStatus(running, clientId), 400, 'pending: answered as unknown');

    const approved = await cli('apps', 'approve', clientId);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(approved.stdout.trim(), `${clientId} approved`);
    assert.equal(await reviewOf(clientId), 'approved');
    assert.equal(await authorizeStatus(running, clientId), 302, 'on to the enrollee login');

    const again = await cli('apps', 'reject', clientId);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), `openenroll: ${clientId} is approved, not pending`);
    assert.equal(await reviewOf(clientId), 'approved', 'a refused review changes nothing');
    assert.equal(await authorizeStatus(running, clientId), 302);
  });

  test('reject: authorize keeps refusing the app, and approve cannot undo it', async () => {
    const { browser } = await verifiedDeveloper(running.url, mailbox);
    const { clientId } = await createPortalApp(browser, { name: 'Rejected By CLI' });

    const rejected = await cli('apps', 'reject', clientId);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.equal(rejected.stdout.trim(), `${clientId} rejected`);
    assert.equal(await authorizeStatus(running, clientId), 400);
    const page = await (await browser.get(`/developers/apps/${clientId}`)).text();
    assert.match(page, /<strong class="state">Rejected<\/strong>/);

    const approve = await cli('apps', 'approve', clientId);
    assert.equal(approve.code, 1);
    assert.equal(approve.stderr.trim(), `openenroll: ${clientId} is rejected, not pending`);
    assert.equal(await reviewOf(clientId), 'rejected');
    assert.equal(await authorizeStatus(running, clientId), 400);
  });

  test('an unknown client id is a clear error for both, and no row changes', async () => {
    const before = (await cli('apps', 'list', '--json')).stdout;
    for (const verb of ['approve', 'reject']) {
      const result = await cli('apps', verb, 'no-such-client');
      assert.equal(result.code, 1, verb);
      assert.equal(result.stdout, '', verb);
      assert.equal(result.stderr.trim(), 'openenroll: no app with client id no-such-client', verb);
    }
    assert.equal((await cli('apps', 'list', '--json')).stdout, before);
  });
});
