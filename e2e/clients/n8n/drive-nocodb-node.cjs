'use strict';
/**
 * Drives n8n's NocoDB node (n8n-nodes-base, installed in this folder) through
 * its own execute(), with a small execution context that does real HTTP:
 * one scenario per API option — create three rows, get one, get many with a
 * filter and a sort, update one, delete one, list what is left. Prints one
 * JSON document: the items each step answered (or the error it threw).
 *
 *   node drive-nocodb-node.cjs '{"url":"http://127.0.0.1:8080","token":"…","option":"v3","baseId":"p…","tableId":"m…"}'
 *
 * Options: "v0.90" (node 3, API version 2: /api/v1/db/data), "v0.200" (node 3,
 * API version 3: /api/v2/tables), "v3" (node 4, the default: /api/v3/data).
 * The token is an API token (the node's "API Token" credential, xc-token).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script run by node from this folder (its own node_modules)
const { NocoDB } = require('n8n-nodes-base/dist/nodes/NocoDB/NocoDB.node.js');

const OPTIONS = { 'v0.90': { node: 3, api: 2 }, 'v0.200': { node: 3, api: 3 }, v3: { node: 4 } };

/** n8n's request options (request-style `uri`/`qs` or httpRequest-style `url`) as a fetch, with the credential's header. */
async function send(token, options) {
  const url = new URL(options.uri || options.url);
  for (const [k, v] of Object.entries(options.qs || {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers = { 'xc-token': token };
  let body;
  if (options.body !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(options.body); }
  const res = await fetch(url, { method: options.method || 'GET', headers, body });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : {};
  if (res.status >= 400) {
    const err = new Error(`${options.method} ${url.pathname} answered ${res.status}: ${text}`);
    Object.assign(err, { httpCode: String(res.status), statusCode: res.status, response: { status: res.status, body: parsed } });
    throw err;
  }
  return parsed;
}

/** The subset of IExecuteFunctions the NocoDB node calls. */
function executionContext(cfg, node, params, items) {
  const get = (name, _i, fallback) => {
    const value = name.split('.').reduce((at, k) => (at === undefined ? undefined : at[k]), params);
    return value === undefined ? fallback : value;
  };
  const returnJsonArray = (data) => (Array.isArray(data) ? data : [data]).map((json) => ({ json }));
  return {
    getInputData: () => items.map((json) => ({ json })),
    getNodeParameter: get,
    getNode: () => ({ id: 'nocodb', name: 'NocoDB', type: 'n8n-nodes-base.nocoDb', typeVersion: node, parameters: params, position: [0, 0] }),
    getCredentials: async () => ({ host: cfg.url, apiToken: cfg.token }),
    continueOnFail: () => false,
    helpers: {
      returnJsonArray,
      constructExecutionMetaData: (data, { itemData }) => data.map((d) => ({ ...d, pairedItem: itemData })),
      requestWithAuthentication: (_cred, options) => send(cfg.token, options),
      httpRequestWithAuthentication: (_cred, options) => send(cfg.token, options),
    },
  };
}

async function main() {
  const cfg = JSON.parse(process.argv[2]);
  const option = OPTIONS[cfg.option];
  if (!option) throw new Error(`unknown option ${cfg.option}`);
  const type = new NocoDB().getNodeType(option.node);
  const v4 = option.node === 4;
  const common = v4
    ? { authentication: 'nocoDbApiToken', resource: 'row', projectId: cfg.baseId, table: cfg.tableId }
    : { authentication: 'nocoDbApiToken', version: option.api, resource: 'row', projectId: cfg.baseId, table: cfg.tableId, primaryKey: 'id' };
  const run = async (operation, params, items = [{}]) => {
    const ctx = executionContext(cfg, option.node, { ...common, operation, ...params }, items);
    try {
      const [out] = await type.execute.call(ctx);
      return out.map((o) => o.json);
    } catch (err) {
      return { error: String(err && err.message), description: err && err.description };
    }
  };
  const asInput = (fields) => (v4 ? { fields } : fields);
  const sort = v4 ? { property: [{ field: { value: 'Qty' }, direction: 'desc' }] } : { property: [{ field: 'Qty', direction: 'desc' }] };
  const steps = {};
  steps.create = await run('create', { dataToSend: 'autoMapInputData', inputsToIgnore: '' },
    [asInput({ Title: 'n8n a', Qty: 1 }), asInput({ Title: 'n8n b', Qty: 2 }), asInput({ Title: 'n8n c', Qty: 3 })]);
  steps.get = await run('get', { id: '2', downloadAttachments: false });
  steps.getMany = await run(v4 ? 'search' : 'getAll', {
    returnAll: false, limit: 10, downloadAttachments: false, options: { where: '(Qty,gt,1)', sort, fields: ['Title', 'Qty'] },
  });
  if (v4) steps.update = await run('update', { id: '2', dataToSend: 'autoMapInputData', inputsToIgnore: '' }, [asInput({ Title: 'n8n b2' })]);
  else if (option.api === 3) steps.update = await run('update', { dataToSend: 'autoMapInputData', inputsToIgnore: '' }, [{ Id: 2, Title: 'n8n b2' }]);
  else steps.update = await run('update', { id: '2', dataToSend: 'autoMapInputData', inputsToIgnore: '' }, [{ Title: 'n8n b2' }]);
  steps.delete = await run('delete', { id: '1' });
  steps.left = await run(v4 ? 'search' : 'getAll', { returnAll: true, downloadAttachments: false, options: {} });
  process.stdout.write(`${JSON.stringify(steps)}\n`);
}

main().catch((err) => { process.stderr.write(`${err && err.stack}\n`); process.exit(1); });
