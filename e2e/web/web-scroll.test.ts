import { BrowserSuite, describeBrowser, poll, screenshot } from './web.helpers';

/**
 * The budgets on a big table, in a real browser on a real `npm start`
 * process: time to an interactive grid over 100,000 rows, and scrolling it end
 * to end fetches only the pages in view, with no blank rows lingering.
 * Figures are printed, not asserted (timings under load are noise); the pages
 * fetched are asserted. Screenshot: test-results/web/web-scroll/.
 */
describeBrowser('the web app: a 100,000-row table (chromium, npm start)', () => {
  const suite = new BrowserSuite();
  const { server } = suite;
  let token = '';
  let baseId = '';

  beforeAll(async () => {
    ({ token } = await suite.signUp('scroll'));
    const base = await server.call<{ id: string }>('POST', '/api/v1/db/meta/projects', token, { title: 'Projects' });
    expect(base.status).toBe(200);
    baseId = base.body.id;
    await suite.signIn(token);
  });

  it('scrolls a 100,000-row table end to end fetching only the pages in view, no blank rows lingering', async () => {
    const big = await server.call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, token, {
      title: 'Big', table_name: 'Big', columns: [{ title: 'Title', column_name: 'Title', uidt: 'SingleLineText' }, { title: 'N', column_name: 'N', uidt: 'Number' }],
    });
    expect(big.status).toBe(200);
    const ROWS = 100_000;
    const loadStarted = Date.now();
    for (let start = 0; start < ROWS; start += 1000) {
      const batch = Array.from({ length: 1000 }, (_, i) => ({ Title: `Row ${start + i + 1}`, N: start + i + 1 }));
      expect((await server.call('POST', `/api/v2/tables/${big.body.id}/records`, token, batch)).status).toBe(200);
    }
    console.log(`set-up: ${ROWS} rows inserted through the API in ${Date.now() - loadStarted} ms`);
    const p = await suite.newPage(suite.context);
    const offsets: number[] = [];
    p.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === `/api/v2/tables/${big.body.id}/records`) offsets.push(Number(url.searchParams.get('offset')));
    });
    const started = Date.now();
    await p.goto(`${server.url}/bases/${baseId}/tables/${big.body.id}`);
    await poll(() => suite.cell(0, 0, p).textContent()).toBe('Row 1');
    console.log(`budget: time to an interactive grid over ${ROWS} rows (navigation to first row rendered): ${Date.now() - started} ms`);
    const scroller = p.getByTestId('grid-scroller');
    expect(await scroller.getAttribute('data-total')).toBe(String(ROWS));
    // Jump through the table by the scrollbar, then to the end by the keyboard (Ctrl+End).
    const stops = [0.25, 0.5, 0.75];
    for (const at of stops) {
      await scroller.evaluate((el, f) => { el.scrollTop = (el.scrollHeight - el.clientHeight) * f; }, at);
      const jumped = Date.now();
      const firstRow = async () => Number(await p.locator('.grid-body [role="row"]').first().getAttribute('data-row'));
      await poll(async () => (await firstRow()) > ROWS * at - 100 && (await p.locator('.grid-body .loading-cell').count()) === 0).toBe(true);
      const first = await firstRow();
      expect(await p.locator(`[data-row="${first + 5}"] [role="gridcell"]`).first().textContent()).toBe(`Row ${first + 6}`);
      console.log(`scroll to ${at * 100}%: rows from ${first + 1} filled ${Date.now() - jumped} ms after the jump`);
    }
    await suite.cell(Number(await p.locator('.grid-body [role="row"]').first().getAttribute('data-row')) + 2, 0, p).click();
    await p.keyboard.press('Control+End');
    await poll(() => p.locator(`#cell-${ROWS - 1}-0`).textContent()).toBe(`Row ${ROWS}`);
    await screenshot(p, 'big-table-end', `the ${ROWS.toLocaleString('en')}-row table scrolled to its end (Ctrl+End): the last rows, no blank rows`);
    const pages = [...new Set(offsets)].sort((a, b) => a - b);
    console.log(`pages fetched scrolling ${ROWS} rows (0 → 25% → 50% → 75% → end): ${offsets.length} requests, offsets ${pages.join(', ')} (of ${ROWS / 100} pages)`);
    // Every fetched page is one the grid showed: the first, around each stop, the last.
    for (const offset of pages) {
      const near = [0, ...stops.map((f) => f * ROWS), ROWS].some((row) => Math.abs(offset - row) <= 300);
      expect(near).toBe(true);
    }
    expect(offsets.length).toBeLessThanOrEqual(3 * (stops.length + 2));
    await p.close();
  }, 180_000);

});
