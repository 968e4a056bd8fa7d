import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestApi, skipMarker, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * n8n's NocoDB node (n8n-nodes-base 2.41.1, installed test-only in
 * e2e/clients/n8n by `npm ci --ignore-scripts` there (its lock pins the tree); .ci/run does it and
 * sets CI_N8N_CLIENT=1, which makes a missing install fail instead of skip)
 * driven through its own execute() against a running stack, for each API
 * option: node 3 with "v0.90.0 Onwards" (/api/v1/db/data) and "v0.200.0
 * Onwards" (/api/v2/tables), and node 4 (its default, /api/v3/data). The
 * driver (e2e/clients/n8n/drive-nocodb-node.cjs) runs in its own node
 * process: n8n's 800 packages stay out of jest's module registry. The
 * expected answers are what the same driver printed against NocoDB 0.301.3
 * (see the comments; NocoDB's tables also carry CreatedAt/UpdatedAt).
 */
const CLIENT = join(__dirname, 'clients', 'n8n');
const installed = existsSync(join(CLIENT, 'node_modules', 'n8n-nodes-base', 'package.json'));
const required = process.env.CI_N8N_CLIENT === '1';
const run = promisify(execFile);

let stack: TestStack;
let token: string;
let apiToken: string;
let baseId: string;

async function raw(method: string, path: string, body?: unknown): Promise<any> {
  return (await new TestApi(stack.url).call(method, path, { body, headers: { 'xc-auth': token } })).body;
}

async function drive(option: string): Promise<Record<string, any>> {
  const tableId = (await raw('POST', `/api/v2/meta/bases/${baseId}/tables`, {
    title: `N8n ${option.replace('.', '')}`,
    columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
      { column_name: 'qty', title: 'Qty', uidt: 'Number' },
    ],
  })).id;
  const cfg = JSON.stringify({ url: stack.url, token: apiToken, option, baseId, tableId });
  const { stdout } = await run(process.execPath, ['drive-nocodb-node.cjs', cfg], { cwd: CLIENT, timeout: 60_000 });
  return JSON.parse(stdout);
}

const suite = installed ? describe : required ? describe : describe.skip;
const title = installed || required ? "n8n's NocoDB node, every API option"
  : `n8n's NocoDB node ${skipMarker('e2e/clients/n8n is not installed (cd e2e/clients/n8n && npm ci --ignore-scripts)')}`;

suite(title, () => {
  beforeAll(async () => {
    if (!installed) throw new Error('CI_N8N_CLIENT=1 but e2e/clients/n8n/node_modules/n8n-nodes-base is missing: its install failed');
    stack = await startTestStack(allServices);
    token = (await new TestApi(stack.url).signUp('e2e', 'n8n-node@example.com')).token;
    baseId = (await raw('POST', '/api/v2/meta/bases/', { title: 'n8n' })).id;
    apiToken = (await raw('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { description: 'n8n' })).token;
  }, 120_000);
  afterAll(async () => { await stack?.stop(); });

  const left = [{ Id: 2, Title: 'n8n b2', Qty: 2 }, { Id: 3, Title: 'n8n c', Qty: 3 }];

  it('node 3, API "v0.90.0 Onwards" (/api/v1/db/data)', async () => {
    const steps = await drive('v0.90');
    // NocoDB: create → the items with "id": null (the node reads an id Tabula's and NocoDB's bulk insert both leave out).
    expect(steps.create.map((r: { Title: string }) => r.Title)).toEqual(['n8n a', 'n8n b', 'n8n c']);
    expect(steps.get).toEqual([expect.objectContaining({ Id: 2, Title: 'n8n b', Qty: 2 })]);
    // NocoDB: where (Qty,gt,1), sort -Qty, fields Title,Qty → [{"Title":"n8n c","Qty":3},{"Title":"n8n b","Qty":2}] (Tabula adds the key).
    expect(steps.getMany.map((r: { Title: string; Qty: number }) => [r.Title, r.Qty])).toEqual([['n8n c', 3], ['n8n b', 2]]);
    expect(steps.update).toEqual([{ success: true }]);
    expect(steps.delete).toEqual([{ success: true }]);
    expect(steps.left).toEqual(left.map((r) => expect.objectContaining(r)));
  });

  it('node 3, API "v0.200.0 Onwards" (/api/v2/tables)', async () => {
    const steps = await drive('v0.200');
    // NocoDB: [{"Title":"n8n a","Qty":1,"Id":1}, …].
    expect(steps.create).toEqual([{ Title: 'n8n a', Qty: 1, Id: 1 }, { Title: 'n8n b', Qty: 2, Id: 2 }, { Title: 'n8n c', Qty: 3, Id: 3 }]);
    expect(steps.get).toEqual([expect.objectContaining({ Id: 2, Title: 'n8n b', Qty: 2 })]);
    expect(steps.getMany.map((r: { Title: string; Qty: number }) => [r.Title, r.Qty])).toEqual([['n8n c', 3], ['n8n b', 2]]);
    // NocoDB: [{"Id":2,"Title":"n8n b2"}]; delete → [{"Id":"1"}] (NocoDB echoes the id as sent; Tabula answers the key).
    expect(steps.update).toEqual([{ Id: 2, Title: 'n8n b2' }]);
    expect(steps.delete).toEqual([{ Id: 1 }]);
    expect(steps.left).toEqual(left.map((r) => expect.objectContaining(r)));
  });

  it('node 4 (v0.240.0 onwards: /api/v3/data)', async () => {
    const steps = await drive('v3');
    // NocoDB: [{"id":1,"fields":{…,"Title":"n8n a","Qty":1}}, …].
    expect(steps.create.map((r: { id: number; fields: { Title: string } }) => [r.id, r.fields.Title])).toEqual([[1, 'n8n a'], [2, 'n8n b'], [3, 'n8n c']]);
    expect(steps.get).toEqual([{ id: 2, fields: expect.objectContaining({ Title: 'n8n b', Qty: 2 }) }]);
    // NocoDB: [{"id":3,"fields":{"Title":"n8n c","Qty":3}},{"id":2,"fields":{"Title":"n8n b","Qty":2}}].
    expect(steps.getMany).toEqual([{ id: 3, fields: { Title: 'n8n c', Qty: 3 } }, { id: 2, fields: { Title: 'n8n b', Qty: 2 } }]);
    expect(steps.update).toEqual([{ id: 2, fields: expect.objectContaining({ Title: 'n8n b2', Qty: 2 }) }]);
    // NocoDB: [{"id":"1","deleted":true}] (the id as sent; Tabula answers the key).
    expect(steps.delete).toEqual([{ id: 1, deleted: true }]);
    expect(steps.left).toEqual(left.map(({ Id, ...fields }) => ({ id: Id, fields: expect.objectContaining(fields) })));
  });
});
