import type { Page } from 'playwright-core';
import { BrowserSuite, describeBrowser, poll, screenshot } from './web.helpers';

/**
 * Editing in the grid, in a real browser on a real `npm start` process, on a
 * table made through the API as the new-user session (web-session.test.ts)
 * leaves it: seven columns, six rows, the view filtered (Qty > 20) and sorted
 * (Qty descending). In order: delete a row, rename the table, a base created,
 * renamed and deleted; copy and paste of a range with undo; hide, show and
 * delete a column, a formula column; a column renamed with its select options
 * changed and columns moved; comments edited by their author and resolved by
 * the owner. Screenshots: test-results/web/web-editing/.
 */
describeBrowser('the web app: editing the grid, columns and comments (chromium, npm start)', () => {
  const suite = new BrowserSuite();
  const { server } = suite;
  let page: Page;
  let email = '';
  let token = '';
  let baseId = '';
  let tableId = '';
  let gridUrl = '';

  beforeAll(async () => {
    ({ page } = suite);
    ({ email, token } = await suite.signUp('editing'));
    const options = ['todo', 'doing', 'done'].map((title, i) => ({ title, color: ['#cfdffe', '#d0f1fd', '#c2f5e9'][i] }));
    ({ baseId, tableId, gridUrl } = await suite.createTable(token, 'Projects', 'Tasks', [
      { title: 'Title', uidt: 'SingleLineText' }, { title: 'Qty', uidt: 'Number' }, { title: 'Done', uidt: 'Checkbox' },
      { title: 'Status', uidt: 'SingleSelect', colOptions: { options } }, { title: 'Due', uidt: 'Date' },
      { title: 'Contact', uidt: 'Email' }, { title: 'Files', uidt: 'Attachment' },
    ]));
    const rows = [['Task 1', 10, 'todo'], ['Task 2', 20, 'doing'], ['Task 3', 30, 'done'], ['Task 4 (phone)', 41, 'todo'], ['Edited live', 50, 'doing'], ['While offline', 99, null]];
    const inserted = await server.call('POST', `/api/v2/tables/${tableId}/records`, token, rows.map(([Title, Qty, Status], i) => ({
      Title, Qty, Status, Done: i % 2 === 0, Due: `2026-0${i + 1}-15`, Contact: `t${i + 1}@example.com`,
    })));
    expect(inserted.status).toBe(200);
    const meta = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}`, token)).body;
    const qty = meta.columns.find((c: { title: string }) => c.title === 'Qty').id;
    const viewId = meta.views[0].id;
    expect((await server.call('POST', `/api/v1/db/meta/views/${viewId}/filters`, token, { fk_column_id: qty, comparison_op: 'gt', value: '20' })).status).toBe(200);
    expect((await server.call('POST', `/api/v1/db/meta/views/${viewId}/sorts`, token, { fk_column_id: qty, direction: 'desc' })).status).toBe(200);
    await suite.signIn(token);
  });

  it('deletes a row; renames a table; creates, renames and deletes a base', async () => {
    page.on('dialog', (d) => void (d.type() === 'prompt' ? d.accept(promptAnswer) : d.accept()));
    let promptAnswer = '';
    await page.goto(gridUrl);
    await poll(() => suite.cell(3, 0).textContent()).toBe('Task 3');
    await suite.cell(3, 0).click();
    await page.getByRole('button', { name: 'Delete row' }).click();
    await poll(() => suite.rowCount()).toBe(3);
    expect((await server.call('GET', `/api/v2/tables/${tableId}/records?where=(Title,eq,Task 3)`, token)).body.list).toEqual([]);
    await page.getByRole('link', { name: '← Tables' }).click();
    promptAnswer = 'Tasks renamed';
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('link', { name: 'Tasks renamed' }).waitFor();
    await page.getByRole('link', { name: '← Bases' }).click();
    await page.getByLabel('New base').fill('Scratch');
    await page.getByRole('button', { name: 'Create base' }).click();
    await page.getByRole('heading', { name: /Scratch/ }).waitFor();
    await page.getByRole('link', { name: '← Bases' }).click();
    const scratch = page.getByRole('listitem').filter({ hasText: 'Scratch' });
    promptAnswer = 'Scratch renamed';
    await scratch.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('link', { name: 'Scratch renamed' }).waitFor();
    await screenshot(page, 'bases', 'the bases page: Projects and the renamed Scratch base');
    await page.getByRole('listitem').filter({ hasText: 'Scratch renamed' }).getByRole('button', { name: 'Delete' }).click();
    await poll(() => page.getByRole('link', { name: 'Scratch renamed' }).count()).toBe(0);
    const list = await server.call('GET', '/api/v1/db/meta/projects', token);
    expect(list.body.list.map((b: { title: string }) => b.title)).toEqual(['Projects']);
    page.removeAllListeners('dialog');
  });

  it('copies a Shift-selected range as tab-separated text, pastes a block (rows past the end added), undoes it', async () => {
    await page.goto(gridUrl);
    // Rows (Qty > 20, Qty descending): While offline (99), Edited live (50), Task 4 (phone) (41).
    await poll(() => suite.cell(2, 0).textContent()).toBe('Task 4 (phone)');
    await suite.cell(0, 0).click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    expect(await page.locator('[role="gridcell"][aria-selected="true"]').count()).toBe(4);
    const clipboard = (kind: 'copy' | 'paste', text = '') => page.evaluate(([k, t]) => {
      const scope = globalThis as any;
      const data = new scope.DataTransfer();
      if (t) data.setData('text/plain', t);
      scope.document.querySelector('[role="grid"]').dispatchEvent(new scope.ClipboardEvent(k, { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain') as string;
    }, [kind, text] as const);
    expect(await clipboard('copy')).toBe('While offline\t99\nEdited live\t50');
    await suite.cell(1, 0).click();
    await clipboard('paste', 'Pasted 1\t60\nPasted 2\t61\nPasted 3\t62\n');
    const titles = async () => (await server.call('GET', `/api/v2/tables/${tableId}/records?sort=Id&fields=Title,Qty`, token)).body.list.map((r: any) => `${r.Title}:${r.Qty}`);
    // By id: record 4 was row 3 (Task 4), record 5 row 2 (Edited live).
    await poll(titles).toEqual(['Task 1:10', 'Task 2:20', 'Pasted 2:61', 'Pasted 1:60', 'While offline:99', 'Pasted 3:62']);
    await poll(() => suite.rowCount()).toBe(4);
    await screenshot(page, 'pasted', 'a three-row block pasted at row 2: two rows overwritten, one added past the end');
    await suite.grid().focus();
    await page.keyboard.press('Control+z');
    await poll(titles).toEqual(['Task 1:10', 'Task 2:20', 'Task 4 (phone):41', 'Edited live:50', 'While offline:99']);
    await poll(() => suite.rowCount()).toBe(3);
  });

  it('hides a field in the view, shows it again, deletes a column, adds a formula column (a bad one: the server message)', async () => {
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByLabel('Show Contact').click(); // the box follows the view once saved
    await poll(() => page.getByRole('columnheader', { name: /^Contact\b/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Fields/ }).textContent()).toBe('Fields (1 hidden)');
    const contactShown = async () => {
      const meta = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}`, token)).body;
      const contact = meta.columns.find((c: any) => c.title === 'Contact');
      return meta.views[0].columns.find((vc: any) => vc.fk_column_id === contact.id).show;
    };
    expect(await contactShown()).toBe(false);
    await screenshot(page, 'fields', 'the fields panel: Contact hidden from the view');
    await page.getByLabel('Show Contact').click();
    await page.getByRole('columnheader', { name: /^Contact\b/ }).waitFor();
    expect(await contactShown()).toBe(true);
    await page.getByRole('button', { name: 'Delete Contact' }).click();
    await poll(() => page.getByRole('columnheader', { name: /^Contact\b/ }).count()).toBe(0);
    const meta = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}`, token)).body;
    expect(meta.columns.map((c: any) => c.title)).not.toContain('Contact');
    // A formula column: the server's validation message is shown for a bad formula; a good one computes.
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.getByLabel('Column name').fill('Double');
    await page.getByLabel('Column type').selectOption({ label: 'Formula' });
    await page.getByLabel(/^Formula/).fill('{Qty} * ');
    await page.getByRole('button', { name: 'Save column' }).click();
    await page.getByRole('region', { name: 'Add column' }).getByRole('alert').waitFor();
    expect(await page.getByRole('region', { name: 'Add column' }).getByRole('alert').textContent()).toMatch(/formula|position/i);
    await page.getByLabel(/^Formula/).fill('{Qty} * 2');
    await page.getByRole('button', { name: 'Save column' }).click();
    await page.getByRole('columnheader', { name: /^Double\b/ }).waitFor();
    await poll(() => suite.cell(0, 6).textContent()).toBe('198');
    page.removeAllListeners('dialog');
  });

  it('edits a column (rename, select options with colours) and moves columns in the view (left/right)', async () => {
    const titles = async () => (await page.getByRole('columnheader').allTextContents()).map((h) => h.split(' ')[0]);
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('button', { name: 'Edit Status' }).click();
    const edit = page.getByRole('region', { name: 'Edit column Status' });
    await edit.getByLabel('Column name').fill('State');
    await edit.getByLabel('Colour of option 1', { exact: true }).fill('#ffdaf6');
    await edit.getByRole('button', { name: 'Add option' }).click();
    await edit.getByLabel('Option 4', { exact: true }).fill('blocked');
    await screenshot(page, 'column-edit', 'editing the Status column: renamed to State, option colours, a fourth option');
    await suite.checkAxe('column edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('columnheader', { name: /^State\b/ }).waitFor();
    let meta = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}`, token)).body;
    const state = meta.columns.find((c: any) => c.title === 'State');
    expect(state.colOptions.options.map((o: any) => [o.title, o.color])).toEqual([['todo', '#ffdaf6'], ['doing', '#d0f1fd'], ['done', '#c2f5e9'], ['blocked', '#ffdaf6']]);
    expect(meta.columns.map((c: any) => c.title)).not.toContain('Status');
    // Existing values keep their option.
    expect((await server.call('GET', `/api/v2/tables/${tableId}/records?sort=Id&fields=State`, token)).body.list.map((r: any) => r.State)).toContain('doing');
    // Move Qty left (before Title), then Done right (after State): the grid and the view follow.
    const before = await titles();
    expect(before.slice(0, 5)).toEqual(['#', 'Title', 'Qty', 'Done', 'State']);
    await page.getByRole('button', { name: 'Move Qty left' }).click();
    await poll(titles).toEqual(['#', 'Qty', 'Title', ...before.slice(3)]);
    await page.getByRole('button', { name: 'Move Done right' }).click();
    await poll(async () => (await titles()).slice(0, 5)).toEqual(['#', 'Qty', 'Title', 'State', 'Done']);
    expect(await page.getByRole('button', { name: 'Move Qty left' }).isDisabled()).toBe(true);
    meta = (await server.call('GET', `/api/v1/db/meta/tables/${tableId}`, token)).body;
    const byId = new Map(meta.columns.map((c: any) => [c.id, c.title]));
    const viewOrder = [...meta.views[0].columns].filter((vc: any) => ['Qty', 'Title', 'State', 'Done'].includes(byId.get(vc.fk_column_id) as string))
      .sort((a: any, b: any) => a.order - b.order).map((vc: any) => byId.get(vc.fk_column_id));
    expect(viewOrder).toEqual(['Qty', 'Title', 'State', 'Done']);
    await page.reload();
    await suite.grid().waitFor();
    expect((await titles()).slice(0, 5)).toEqual(['#', 'Qty', 'Title', 'State', 'Done']);
  });

  it('comments: the author edits their own comment, a creator resolves; a commenter is offered edit of their own only and no resolve', async () => {
    const { email: commenterEmail, token: commenterToken } = await suite.signUp('commenter');
    await suite.addMember(token, baseId, commenterEmail, 'commenter');
    await page.getByRole('button', { name: 'Expand row 1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const recordId = /Record (\S+)/.exec((await dialog.locator('#record-title').textContent()) ?? '')?.[1];
    expect(recordId).toBeTruthy();
    const theirs = await server.call('POST', `/api/v2/tables/${tableId}/records/${recordId}/comments`, commenterToken, { comment: 'From the commenter' });
    expect(theirs.status).toBe(200);
    await dialog.getByLabel('New comment').fill('Typo <here>');
    await dialog.getByRole('button', { name: 'Comment' }).click();
    const mine = dialog.getByRole('listitem').filter({ hasText: 'Typo <here>' });
    await mine.waitFor();
    const other = dialog.getByRole('listitem').filter({ hasText: 'From the commenter' });
    expect(await other.getByRole('button', { name: /^Edit comment/ }).count()).toBe(0);
    await mine.getByRole('button', { name: /^Edit comment/ }).click();
    await dialog.getByLabel(/^Edit comment/).fill('Fixed <here>');
    await dialog.getByRole('button', { name: 'Save comment' }).click();
    const edited = dialog.getByRole('listitem').filter({ hasText: 'Fixed <here>' });
    await edited.getByText('(edited)').waitFor();
    await other.getByRole('button', { name: /^Resolve comment/ }).click();
    await other.getByText(`resolved by ${email}`).waitFor();
    await screenshot(page, 'comments', 'the comments thread: an edited comment, another user\'s comment resolved');
    await suite.checkAxe('comments');
    const thread = (await server.call('GET', `/api/v2/tables/${tableId}/records/${recordId}/comments`, token)).body.list;
    const byText = Object.fromEntries(thread.map((c: any) => [c.comment, c]));
    expect(byText['Fixed <here>'].is_edited).toBe(true);
    expect(byText['From the commenter'].resolved_by_email).toBe(email);
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The commenter: edit on their own comment only, no resolve anywhere.
    const { context: commenterContext, page: commenter } = await suite.signedIn(commenterToken);
    try {
      await commenter.goto(gridUrl);
      await commenter.getByRole('button', { name: 'Expand row 1' }).click();
      const theirDialog = commenter.getByRole('dialog');
      await theirDialog.getByText('Fixed <here>').waitFor();
      expect(await theirDialog.getByRole('button', { name: /^(Resolve|Reopen) comment/ }).count()).toBe(0);
      expect(await theirDialog.getByRole('listitem').filter({ hasText: 'Fixed <here>' }).getByRole('button', { name: /^Edit comment/ }).count()).toBe(0);
      expect(await theirDialog.getByRole('listitem').filter({ hasText: 'From the commenter' }).getByRole('button', { name: /^Edit comment/ }).count()).toBe(1);
    } finally {
      await commenterContext.close();
    }
  });

});
