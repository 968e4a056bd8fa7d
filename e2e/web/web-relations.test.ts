import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { StandaloneServer, axe, describeBrowser, launchChromium, poll, signInPage, suiteScreenshots, type AxeSummary } from './web.helpers';

/**
 * Issue 32's relations, in a real browser (playwright-core driving Debian's
 * chromium) on a real `npm start` process: two tables made in the app, a
 * Links column added through the add-column dialog, records linked and
 * unlinked through a link cell's record picker, a Lookup and a Rollup added
 * through the dialog and their values checked in the grid, the expanded
 * record's linked list (link and unlink there too), the reverse link's chip
 * on the other table, and a viewer offered no picker. axe on the dialog and
 * the picker. Screenshots: test-results/web/relations/.
 */
describeBrowser('the web app: links, lookups and rollups in a real browser (chromium, npm start)', () => {
  const server = new StandaloneServer();
  const shots = suiteScreenshots('relations');
  let browser: Browser;
  let page: Page;
  const email = `rel-${Date.now()}@example.com`;
  const password = 'Web-Password-1';
  let token = '';
  let baseId = '';
  const ids: Record<string, string> = {};
  const axeReports: AxeSummary[] = [];
  const consoleErrors: string[] = [];

  const cell = (row: number, col: number, p: Page = page) => p.locator(`#cell-${row}-${col}`);
  /** A cell's shown value (without the active link cell's picker button). */
  const text = (row: number, col: number, p: Page = page) => cell(row, col, p).locator('.text').textContent();
  const picker = (p: Page = page) => p.getByRole('dialog', { name: /^Books of / });
  const linkedIn = (scope: Locator, column: string) => scope.getByRole('list', { name: `${column}: linked records` }).locator('.chip').allTextContents();
  async function checkAxe(name: string, p: Page = page): Promise<void> {
    const report = await axe(p, name);
    axeReports.push(report);
    expect(report.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);
  }
  async function openTable(title: string, p: Page = page): Promise<void> {
    await p.goto(`${server.url}/bases/${baseId}`);
    await p.getByRole('link', { name: title, exact: true }).click();
    await p.getByRole('grid', { name: 'Records' }).waitFor();
  }
  async function linkedApi(column: string, record: number): Promise<string[]> {
    const r = await server.call('GET', `/api/v2/tables/${ids.Authors}/links/${encodeURIComponent(column)}/records/${record}`, token);
    return r.body.list.map((b: { Title: string }) => b.Title);
  }
  async function addColumn(title: string, type: string, choose: (form: Locator) => Promise<void>, audit?: string): Promise<void> {
    await page.getByRole('button', { name: 'Add column' }).click();
    const form = page.getByRole('region', { name: 'Add column' });
    await form.getByLabel('Column name').fill(title);
    await form.getByLabel('Column type').selectOption({ label: type });
    await choose(form);
    if (audit) {
      await shots.take(page, audit, `the add-column dialog: a ${type} column chosen`);
      await checkAxe(`add column (${type})`);
    }
    await form.getByRole('button', { name: 'Save column' }).click();
    await page.getByRole('columnheader', { name: new RegExp(`^${title}\\b`) }).waitFor();
  }

  beforeAll(async () => {
    await server.start();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    token = (await server.call('POST', '/api/v1/auth/user/signup', undefined, { email, password })).body.token;
    baseId = (await server.call('POST', '/api/v1/db/meta/projects', token, { title: 'Library' })).body.id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server.stop();
    console.log([
      `screenshots (${shots.dir}):`, ...shots.taken.map((s) => `  ${path.basename(s.file)} — ${s.description}`),
      'axe-core report (violations by impact; passes):',
      ...axeReports.map((r) => `  ${r.page}: ${r.violations.length ? r.violations.map((v) => `${v.impact} ${v.id} ×${v.nodes}`).join(', ') : 'no violations'}; ${r.passes} rules passed, ${r.incomplete} need review`),
      `browser console errors: ${consoleErrors.length ? consoleErrors.join(' | ') : 'none'}`,
    ].join('\n'));
  });

  it('creates two tables in the app (Authors; Books with a number field)', async () => {
    await signInPage(page, server.url, email, password);
    for (const [title, columns] of [['Authors', [['Name', 'Text']]], ['Books', [['Title', 'Text'], ['Pages', 'Number']]]] as const) {
      await page.goto(`${server.url}/bases/${baseId}`);
      await page.getByLabel('Table name').fill(title);
      for (const [i, [name, type]] of columns.entries()) {
        if (i > 0) await page.getByRole('button', { name: 'Add column', exact: true }).click();
        await page.getByLabel(`Column ${i + 1} name`).fill(name);
        await page.getByLabel('Type').nth(i).selectOption({ label: type });
      }
      await page.getByRole('button', { name: 'Create table' }).click();
      await page.getByRole('grid', { name: 'Records' }).waitFor();
      ids[title] = page.url().split('/tables/')[1];
    }
    expect((await server.call('POST', `/api/v2/tables/${ids.Authors}/records`, token, [{ Name: 'Ann' }, { Name: 'Bob' }])).status).toBe(200);
    const books = [{ Title: 'Dune', Pages: 412 }, { Title: 'Emma', Pages: 320 }, { Title: 'Ulysses', Pages: 730 }];
    expect((await server.call('POST', `/api/v2/tables/${ids.Books}/records`, token, books)).status).toBe(200);
  });

  it('adds a Links column through the dialog (the other table, has many)', async () => {
    await openTable('Authors');
    await addColumn('Books', 'Links (to another table)', async (form) => {
      await form.getByLabel('Link to table').selectOption({ label: 'Books' });
      expect(await form.getByLabel('Relation').locator('option').allTextContents()).toEqual(['has many', 'many to many', 'belongs to', 'one to one']);
      await form.getByLabel('Relation').selectOption({ label: 'has many' });
    }, 'add-links');
    const meta = await server.call('GET', `/api/v1/db/meta/tables/${ids.Authors}`, token);
    const links = meta.body.columns.find((c: { title: string }) => c.title === 'Books');
    expect(links).toMatchObject({ uidt: 'Links', colOptions: { type: 'hm', fk_related_model_id: ids.Books } });
    await poll(() => text(0, 1)).toBe('0 records');
  });

  it('links records through the link cell\'s picker (search by display value), reflected in the grid', async () => {
    await cell(0, 1).click();
    await page.keyboard.press('Enter');
    const dialog = picker();
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().textContent()).toBe('Books of Ann');
    const results = dialog.getByRole('list', { name: 'Books: records to link' });
    await poll(async () => (await results.getByRole('listitem').allTextContents()).length).toBe(3);
    // The search has focus: typing searches the other table by its display value.
    await dialog.getByLabel('Search Books').and(page.locator(':focus')).waitFor();
    await page.keyboard.type('un');
    await poll(() => results.getByRole('listitem').allTextContents()).toEqual(['DuneLink']);
    await dialog.getByRole('button', { name: 'Link Dune' }).click();
    await poll(() => linkedIn(dialog, 'Books')).toEqual(['Dune']);
    await dialog.getByLabel('Search Books').fill('');
    await dialog.getByRole('button', { name: 'Link Emma' }).click();
    await poll(() => linkedIn(dialog, 'Books')).toEqual(['Dune', 'Emma']);
    expect(await results.getByText('(linked)').count()).toBe(2);
    await shots.take(page, 'picker', 'the record picker of Ann\'s Books cell: Dune and Emma linked, the search over Books');
    await checkAxe('record picker');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Focus is back on the grid (keyboard use goes on).
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role'))).toBe('grid');
    expect(await linkedApi('Books', 1)).toEqual(['Dune', 'Emma']);
    await poll(() => text(0, 1)).toBe('2 records');
    expect(await text(1, 1)).toBe('0 records');
  });

  it('adds a Lookup and a Rollup through the dialog; the grid shows their values read-only', async () => {
    await addColumn('Book titles', 'Lookup (a field of linked records)', async (form) => {
      await form.getByLabel('Link field').selectOption({ label: 'Books' });
      await form.getByLabel('Field of the linked table').selectOption({ label: 'Title' });
    });
    await addColumn('Total pages', 'Rollup (count, sum… of linked records)', async (form) => {
      await form.getByLabel('Link field').selectOption({ label: 'Books' });
      await form.getByLabel('Field of the linked table').selectOption({ label: 'Title' });
      // A text field offers no sums or averages (the API would refuse them).
      expect(await form.getByLabel('Function').locator('option').allTextContents()).toEqual(['count', 'minimum', 'maximum', 'count of distinct values']);
      await form.getByLabel('Field of the linked table').selectOption({ label: 'Pages' });
      expect(await form.getByLabel('Function').locator('option').count()).toBe(8);
      await form.getByLabel('Function').selectOption({ label: 'sum' });
    }, 'add-rollup');
    const meta = await server.call('GET', `/api/v1/db/meta/tables/${ids.Authors}`, token);
    const byTitle = Object.fromEntries(meta.body.columns.map((c: { title: string }) => [c.title, c]));
    expect(byTitle['Book titles']).toMatchObject({ uidt: 'Lookup', colOptions: { fk_relation_column_id: byTitle.Books.id } });
    expect(byTitle['Total pages']).toMatchObject({ uidt: 'Rollup', colOptions: { rollup_function: 'sum', fk_relation_column_id: byTitle.Books.id } });
    await poll(() => text(0, 2)).toBe('Dune, Emma');
    await poll(() => text(0, 3)).toBe('732');
    expect(await text(1, 3)).toBe('0');
    for (const col of [2, 3]) expect(await cell(0, col).getAttribute('aria-readonly')).toBe('true');
    expect(await cell(0, 1).getAttribute('aria-readonly')).toBe('false');
    // Typing on a lookup edits nothing.
    await cell(0, 2).click();
    await page.keyboard.press('Enter');
    expect(await page.locator('.editor').count()).toBe(0);
    expect(await picker().count()).toBe(0);
    await shots.take(page, 'grid', 'Authors: the Books link count, the Book titles lookup and the Total pages rollup (sum)');
  });

  it('unlinks through the picker: the link, lookup and rollup cells follow', async () => {
    await cell(0, 1).click();
    await page.getByRole('button', { name: 'Edit links: Books, row 1' }).click();
    const dialog = picker();
    await poll(() => linkedIn(dialog, 'Books')).toEqual(['Dune', 'Emma']);
    await dialog.getByRole('button', { name: 'Unlink Emma' }).click();
    await poll(() => linkedIn(dialog, 'Books')).toEqual(['Dune']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await linkedApi('Books', 1)).toEqual(['Dune']);
    await poll(() => text(0, 1)).toBe('1 record');
    await poll(() => text(0, 2)).toBe('Dune');
    await poll(() => text(0, 3)).toBe('412');
  });

  it('the expanded record lists the linked records, links and unlinks there', async () => {
    await page.getByRole('button', { name: 'Expand row 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record 1' });
    const group = dialog.getByRole('group', { name: 'Books' });
    await poll(() => linkedIn(group, 'Books')).toEqual(['Dune']);
    await group.getByLabel('Search Books').fill('ulys');
    await group.getByRole('button', { name: 'Link Ulysses' }).click();
    await poll(() => linkedIn(group, 'Books')).toEqual(['Dune', 'Ulysses']);
    await group.getByRole('button', { name: 'Unlink Dune' }).click();
    await poll(() => linkedIn(group, 'Books')).toEqual(['Ulysses']);
    await poll(() => dialog.locator('.field', { hasText: 'Total pages' }).locator('.field-value').textContent()).toBe('730');
    await shots.take(page, 'expanded', 'Ann expanded: Books lists Ulysses (Unlink; search to link), the rollup reads 730');
    await checkAxe('expanded record with links');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await linkedApi('Books', 1)).toEqual(['Ulysses']);
    await poll(() => text(0, 3)).toBe('730');
    await poll(() => text(0, 2)).toBe('Ulysses');
  });

  it('the edit dialog says what a relation column reads (the API renames it only)', async () => {
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('button', { name: 'Edit Total pages' }).click();
    const edit = page.getByRole('region', { name: 'Edit column Total pages' });
    await edit.getByText('Rollup: sum of Pages of the Books records linked through Books.', { exact: false }).waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  it('filters on a rollup with number operators; the filter builder offers the link count, not a link\'s records', async () => {
    // A belongs-to link: one record, NocoDB's LinkToAnotherRecord (its records are not filterable).
    await addColumn('Favourite', 'Links (to another table)', async (form) => {
      await form.getByLabel('Link to table').selectOption({ label: 'Books' });
      await form.getByLabel('Relation').selectOption({ label: 'belongs to' });
    });
    const meta = await server.call('GET', `/api/v1/db/meta/tables/${ids.Authors}`, token);
    expect(meta.body.columns.find((c: { title: string }) => c.title === 'Favourite')).toMatchObject({ uidt: 'LinkToAnotherRecord', colOptions: { type: 'bt' } });
    await page.getByRole('button', { name: /^Filter/ }).click();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const fields = await page.getByLabel('Field').locator('option').allTextContents();
    expect(fields).toEqual(['Name', 'Books', 'Book titles', 'Total pages']);
    await page.getByLabel('Field').selectOption('Total pages');
    expect(await page.getByLabel('Operator').locator('option').allTextContents()).toContain('>');
    await page.getByLabel('Operator').selectOption('gt');
    await page.getByLabel('Value').fill('500');
    expect(await page.getByTestId('where-preview').textContent()).toBe('(Total pages,gt,500)');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(() => page.getByTestId('grid-scroller').getAttribute('data-total')).toBe('1');
    expect(await text(0, 0)).toBe('Ann');
    await page.getByRole('button', { name: /^Filter/ }).click();
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(() => page.getByTestId('grid-scroller').getAttribute('data-total')).toBe('2');
  });

  it('the other table shows the reverse link as a chip; a one-record link is replaced through its picker', async () => {
    await openTable('Books');
    const headers = (await page.getByRole('columnheader').allTextContents()).map((h) => h.split(' ')[0]);
    const authors = headers.indexOf('Authors') - 1;
    expect(authors).toBeGreaterThan(0);
    await poll(() => cell(2, authors).locator('.chip').allTextContents()).toEqual(['Ann']);
    await cell(2, authors).dblclick();
    const dialog = page.getByRole('dialog', { name: 'Authors of Ulysses' });
    await dialog.getByText('One record: linking another replaces it.').waitFor();
    await dialog.getByRole('button', { name: 'Link Bob' }).click();
    await poll(() => linkedIn(dialog, 'Authors')).toEqual(['Bob']);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await poll(() => cell(2, authors).locator('.chip').allTextContents()).toEqual(['Bob']);
    await shots.take(page, 'reverse', 'Books: the reverse (belongs-to) link of Ulysses as a chip, now Bob');
    expect(await linkedApi('Books', 1)).toEqual([]);
  });

  it('a viewer reads links but is offered no picker, link or unlink', async () => {
    const viewerEmail = `rel-viewer-${Date.now()}@example.com`;
    expect((await server.call('POST', '/api/v1/auth/user/signup', undefined, { email: viewerEmail, password })).status).toBe(200);
    expect((await server.call('POST', `/api/v1/db/meta/projects/${baseId}/users`, token, { email: viewerEmail, roles: 'viewer' })).status).toBe(200);
    expect((await server.call('POST', `/api/v2/tables/${ids.Authors}/links/Books/records/2`, token, [{ Id: 1 }])).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const viewer = await context.newPage();
      viewer.setDefaultTimeout(10_000);
      await signInPage(viewer, server.url, viewerEmail, password);
      await openTable('Authors', viewer);
      await poll(() => text(1, 1, viewer)).toBe('2 records');
      expect(await cell(1, 1, viewer).getAttribute('aria-readonly')).toBe('true');
      await cell(1, 1, viewer).click();
      await viewer.keyboard.press('Enter');
      await cell(1, 1, viewer).dblclick();
      expect(await viewer.getByRole('dialog').count()).toBe(0);
      expect(await viewer.getByRole('button', { name: /^Edit links/ }).count()).toBe(0);
      await viewer.getByRole('button', { name: 'Expand row 2' }).click();
      const group = viewer.getByRole('dialog', { name: 'Record 2' }).getByRole('group', { name: 'Books' });
      await poll(() => linkedIn(group, 'Books')).toEqual(['Dune', 'Ulysses']);
      expect(await group.getByRole('button').count()).toBe(0);
      expect(await group.getByRole('searchbox').count()).toBe(0);
      await shots.take(viewer, 'viewer', 'a viewer: Bob expanded, Books lists Dune and Ulysses with no link or unlink control');
    } finally {
      await context.close();
    }
  });
});
