import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { BrowserSuite, describeBrowser, poll, screenshot } from './web.helpers';

/**
 * The admin pages, each on its own route, in a real browser on a real
 * `npm start` process: webhooks (create, test, delivery log, active switch,
 * edit, delete; a viewer reads the list only), API tokens (shown once, copied,
 * revoked) and integrations (listed, created, edited, connection tested,
 * deleted; a user who is no org creator is offered nothing). Screenshots:
 * test-results/web/web-admin/.
 */
describeBrowser('the web app: webhooks, API tokens and integrations pages (chromium, npm start)', () => {
  // The connection test reaches the test's PostgreSQL on 127.0.0.1.
  const suite = new BrowserSuite({ env: { SVC_ALLOW_LOCAL_SOURCES: 'true' } });
  const { server } = suite;
  let page: Page;
  let context: BrowserContext;
  let email = '';
  let token = '';
  let baseId = '';
  let tableId = '';
  let gridUrl = '';

  beforeAll(async () => {
    ({ page, context } = suite);
    ({ email, token } = await suite.signUp('admin')); // the first user: org creator and super
    ({ baseId, tableId, gridUrl } = await suite.createTable(token, 'Projects', 'Tasks', [{ title: 'Title', uidt: 'SingleLineText' }]));
    expect((await server.call('POST', `/api/v2/tables/${tableId}/records`, token, { Title: 'First' })).status).toBe(200);
    await suite.signIn(token);
  });

  it('webhooks page: creates a hook, tests it, reads its delivery log, edits it (title, URL, operation, active), deletes it; a viewer gets the list only', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => { received.push(`${req.method} ${req.url} ${body.length > 0}`); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await page.goto(gridUrl);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks of Tasks' }).waitFor();
      await page.getByText('No webhooks yet.').waitFor();
      const form = page.getByRole('form', { name: 'New webhook' });
      await form.getByLabel('Title').fill('Notify <i>ops</i>');
      await form.getByLabel('URL').fill(hookUrl);
      await form.getByLabel('Operation').selectOption('insert');
      await form.getByRole('button', { name: 'Test webhook' }).click();
      await page.getByRole('status').getByText('The hook has been tested successfully').waitFor();
      expect(received).toHaveLength(1);
      await form.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByRole('rowheader', { name: 'Notify <i>ops</i>' }).waitFor();
      const listed = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, token)).body.list;
      expect(listed.map((h: any) => [h.title, h.event, h.operation, h.active])).toEqual([['Notify <i>ops</i>', 'after', 'insert', true]]);
      // Test the saved hook: the call is in its delivery log; then a real insert is delivered and logged too.
      await page.getByRole('button', { name: 'Test Notify <i>ops</i>' }).click();
      const log = page.getByRole('region', { name: 'Delivery log of Notify <i>ops</i>' });
      await log.getByText(/\(test\) HTTP 200/).waitFor();
      expect((await server.call('POST', `/api/v2/tables/${tableId}/records`, token, { Title: 'Hooked' })).status).toBe(200);
      await poll(async () => {
        await log.getByRole('button', { name: 'Refresh log' }).click();
        return log.getByRole('listitem').count();
      }).toBe(2);
      expect(received).toHaveLength(3);
      // The active switch: off in the list, off on the server.
      await page.getByLabel('Active Notify <i>ops</i>').click(); // the box follows the hook once saved
      await poll(async () => (await server.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, token)).body.list[0].active).toBe(false);
      await poll(() => page.getByLabel('Active Notify <i>ops</i>').isChecked()).toBe(false);
      await screenshot(page, 'webhooks', 'the webhooks page: a hook listed (switched off), its delivery log (a test call and an insert, both HTTP 200)');
      await suite.checkAxe('webhooks');
      // A viewer reads the list and is offered no create, test, log or delete.
      const viewerUser = await suite.signUp('hook-viewer');
      await suite.addMember(token, baseId, viewerUser.email, 'viewer');
      const { context: viewerContext, page: viewer } = await suite.signedIn(viewerUser.token);
      try {
        await viewer.goto(`${gridUrl}/webhooks`);
        await viewer.getByRole('rowheader', { name: 'Notify <i>ops</i>' }).waitFor();
        expect(await viewer.getByRole('button').filter({ hasText: /Test|Logs|Edit|Delete|Create/ }).count()).toBe(0);
        expect(await viewer.getByRole('form', { name: 'New webhook' }).count()).toBe(0);
      } finally {
        await viewerContext.close();
      }
      // Edit the hook: its values fill the form; title, URL, operation and active are saved (PATCH) and the next update goes to the new URL.
      await page.getByRole('button', { name: 'Edit Notify <i>ops</i>' }).click();
      const editForm = page.getByRole('form', { name: 'Edit webhook Notify <i>ops</i>' });
      expect([await editForm.getByLabel('Title').inputValue(), await editForm.getByLabel('URL').inputValue(), await editForm.getByLabel('Operation').inputValue()])
        .toEqual(['Notify <i>ops</i>', hookUrl, 'insert']);
      expect(await editForm.getByLabel('Active', { exact: true }).isChecked()).toBe(false);
      await editForm.getByLabel('Title').fill('Notify ops');
      await editForm.getByLabel('URL').fill(`${hookUrl}-edited`);
      await editForm.getByLabel('Operation').selectOption('update');
      await editForm.getByLabel('Active', { exact: true }).check();
      await screenshot(page, 'webhook-edit', 'editing a webhook: its title, URL, operation and active switch in the form');
      await suite.checkAxe('webhook edit');
      await editForm.getByRole('button', { name: 'Save webhook' }).click();
      await page.getByRole('rowheader', { name: 'Notify ops' }).waitFor();
      await page.getByRole('form', { name: 'New webhook' }).waitFor();
      const edited = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, token)).body.list;
      expect(edited.map((h: any) => [h.title, h.event, h.operation, h.active, h.notification?.payload?.path])).toEqual([['Notify ops', 'after', 'update', true, `${hookUrl}-edited`]]);
      expect(await page.getByRole('row', { name: /Notify ops/ }).getByRole('cell').first().textContent()).toBe('after update');
      const updated = received.length;
      expect((await server.call('PATCH', `/api/v2/tables/${tableId}/records`, token, { Id: 1, Title: 'Hooked again' })).status).toBe(200);
      await poll(() => received.slice(updated)).toEqual(['POST /hook-edited true']);
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Delete Notify ops' }).click();
      await page.getByText('No webhooks yet.').waitFor();
      expect((await server.call('GET', `/api/v1/db/meta/tables/${tableId}/hooks`, token)).body.list).toEqual([]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('API tokens page: creates a token shown once with a copy button, which works on the API; revokes it', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel('Description').fill('ci <script>');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('region', { name: 'New token' });
    await shown.waitFor();
    const value = (await shown.getByLabel('Token value').textContent()) ?? '';
    expect(value.length).toBeGreaterThan(20);
    await shown.getByRole('button', { name: 'Copy token' }).click();
    await shown.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(value);
    const me = (t: string) => fetch(`${server.url}/api/v1/auth/user/me`, { headers: { 'xc-token': t } }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
    const asToken = await me(value);
    expect([asToken.status, asToken.body.email]).toEqual([200, email]);
    await page.getByRole('rowheader', { name: 'ci <script>' }).waitFor();
    await screenshot(page, 'tokens', 'the API tokens page: a new token shown once with its copy button, the list below');
    await suite.checkAxe('API tokens');
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByText(value).count()).toBe(0);
    await page.reload();
    await page.getByRole('rowheader', { name: 'ci <script>' }).waitFor();
    expect(await page.content()).not.toContain(value);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke ci <script>' }).click();
    await page.getByText('No tokens yet.').waitFor();
    expect((await me(value)).status).toBe(401);
  });

  it('integrations page: lists what GET /api/v2/meta/integrations returns; creates one', async () => {
    const created = await server.call('POST', '/api/v2/meta/integrations', token, {
      title: 'Warehouse <b>', type: 'database', sub_type: 'pg',
      config: { client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'u', password: 'not-shown-secret', database: 'sales' } },
    });
    expect(created.status).toBe(200);
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Warehouse <b>/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(['database', 'pg', 'yes', 'shared', 'Edit Warehouse <b>']);
    expect(await page.content()).not.toContain('not-shown-secret');
    // Create through the form: bad JSON is refused in the page; a valid config is saved.
    const form = page.getByRole('form', { name: 'New integration' });
    await form.getByLabel('Name', { exact: true }).fill('Reports');
    await form.getByRole('combobox', { name: /^Kind/ }).selectOption('database/pg');
    await form.getByLabel(/^Settings/).fill('{ not json');
    await form.getByRole('button', { name: 'Create integration' }).click();
    await form.getByRole('alert').getByText('The settings are not valid JSON.').waitFor();
    await form.getByLabel(/^Settings/).fill(JSON.stringify({ client: 'pg', connection: { host: 'reports.example.com', port: 5432, user: 'r', password: 'another-secret', database: 'reports' } }));
    await form.getByRole('button', { name: 'Create integration' }).click();
    await page.getByRole('row', { name: /Reports/ }).waitFor();
    const listed = (await server.call('GET', '/api/v2/meta/integrations', token)).body;
    expect(listed.map((i: any) => i.title).sort()).toEqual(['Reports', 'Warehouse <b>']);
    expect(await page.content()).not.toContain('another-secret');
    await screenshot(page, 'integrations', 'the integrations page: two database integrations listed (their settings not shown), the create form');
    await suite.checkAxe('integrations');
  });


  it('integrations page: edits one (name, settings merged), tests its connection (the server\'s error, then OK), deletes it', async () => {
    const database = new URL(server.database.url);
    const connection = { host: database.hostname, port: Number(database.port || 5432), user: decodeURIComponent(database.username), database: 'no_such_database_here' };
    const created = await server.call('POST', '/api/v2/meta/integrations', token, { title: 'Local', type: 'database', sub_type: 'pg', config: { client: 'pg', connection } });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    await page.reload();
    await page.getByRole('button', { name: 'Edit Local' }).click();
    const editor = page.getByRole('form', { name: 'Edit integration Local' });
    expect(await editor.getByLabel('Name', { exact: true }).inputValue()).toBe('Local');
    expect(await editor.getByLabel(/^New settings/).inputValue()).toBe(''); // the stored settings are never shown
    // The test connects for real: a database that does not exist gives the server's message.
    await editor.getByRole('button', { name: 'Test connection' }).click();
    await editor.getByRole('alert').waitFor();
    expect(await editor.getByRole('alert').textContent()).toMatch(/no_such_database_here|does not exist|database/i);
    // Settings typed as JSON are merged into the stored ones: only the database changes.
    await editor.getByLabel(/^New settings/).fill('{ nope');
    await editor.getByRole('button', { name: 'Save integration' }).click();
    await editor.getByRole('alert').getByText('The settings are not valid JSON.').waitFor();
    await editor.getByLabel('Name', { exact: true }).fill('Local (test database)');
    await editor.getByLabel(/^New settings/).fill(JSON.stringify({ connection: { database: database.pathname.slice(1) } }));
    await editor.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('rowheader', { name: 'Local (test database)' }).waitFor();
    const stored = (await server.call('GET', `/api/v2/meta/integrations/${id}?includeConfig=true`, token)).body;
    expect([stored.title, stored.config.connection]).toEqual(['Local (test database)', { ...connection, database: database.pathname.slice(1) }]);
    await page.getByRole('button', { name: 'Edit Local (test database)' }).click();
    const again = page.getByRole('form', { name: 'Edit integration Local (test database)' });
    await again.getByRole('button', { name: 'Test connection' }).click();
    await again.getByRole('status').getByText(/^Connection OK/).waitFor();
    await screenshot(page, 'integration-edit', 'editing an integration: renamed, its settings merged, the connection tested OK');
    await suite.checkAxe('integration edit');
    // Delete, confirmed: gone from the list and from the API.
    page.once('dialog', (d) => void d.accept());
    await again.getByRole('button', { name: 'Delete integration' }).click();
    await poll(() => page.getByRole('rowheader', { name: 'Local (test database)' }).count()).toBe(0);
    expect((await server.call('GET', `/api/v2/meta/integrations/${id}`, token)).status).toBe(404);
  });

  it('integrations page: a user who is not an org creator is told so and offered no form, edit or delete', async () => {
    const member = await suite.signUp('org-viewer'); // every user after the first signs up as org-level-viewer
    expect((await server.call('GET', '/api/v2/meta/integrations', member.token)).status).toBe(403);
    const { context: other, page: p } = await suite.signedIn(member.token);
    try {
      await p.goto(`${server.url}/integrations`);
      await p.getByRole('alert').getByText('Only organisation creators and administrators manage integrations.').waitFor();
      expect(await p.getByRole('form').count()).toBe(0);
      expect(await p.getByRole('button', { name: /^(Edit|Delete|Create)/ }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });

});
