import { filterFromRows, type ColumnMeta } from '@tabula/query';
import { matchesFilter } from './filter-evaluator';
import { classifyTarget, refusalOf, urlRefusal } from '@tabula/http';
import { newHookSecret, signWebhook, verifyWebhook, webhookHeaders } from './signature';
import { renderRequest } from '../delivery/render-request';
import { nextDelayMs, outcomeOf } from '../delivery/retry-policy';

const columns: ColumnMeta[] = [
  { id: 'c1', title: 'Name', column_name: 'name', uidt: 'SingleLineText' },
  { id: 'c2', title: 'Qty', column_name: 'qty', uidt: 'Number' },
  { id: 'c3', title: 'Done', column_name: 'done', uidt: 'Checkbox' },
  { id: 'c4', title: 'Day', column_name: 'day', uidt: 'Date' },
  { id: 'c5', title: 'Tags', column_name: 'tags', uidt: 'MultiSelect' },
];
const f = (rows: object[]) => filterFromRows(rows.map((r, i) => ({ id: `f${i}`, ...r })) as never, columns);

describe('filter evaluator (same semantics as the SQL compiler)', () => {
  it('compares text case-insensitively, numbers numerically, negatives match null', () => {
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'eq', value: 'APPLE' }]), { Name: 'apple' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c2', comparison_op: 'gt', value: '5' }]), { Qty: 10 }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c2', comparison_op: 'gt', value: '5' }]), { Qty: null }, columns)).toBe(false);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'neq', value: 'x' }]), { Name: null }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'like', value: 'pp' }]), { Name: 'Apple' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c1', comparison_op: 'blank' }]), { Name: '' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c3', comparison_op: 'checked' }]), { Done: true }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c5', comparison_op: 'anyof', value: 'b,z' }]), { Tags: 'a,b' }, columns)).toBe(true);
    expect(matchesFilter(f([{ fk_column_id: 'c5', comparison_op: 'allof', value: 'b,z' }]), { Tags: 'a,b' }, columns)).toBe(false);
  });
  it('joins with and / or / not and nests groups', () => {
    const ast = f([
      { fk_column_id: 'c2', comparison_op: 'gt', value: '5', order: 1 },
      { fk_column_id: 'c1', comparison_op: 'eq', value: 'x', logical_op: 'or', order: 2 },
    ]);
    expect(matchesFilter(ast, { Qty: 1, Name: 'x' }, columns)).toBe(true);
    expect(matchesFilter(ast, { Qty: 1, Name: 'y' }, columns)).toBe(false);
    const not = f([{ fk_column_id: 'c1', comparison_op: 'eq', value: 'x', logical_op: 'not' }]);
    expect(matchesFilter(not, { Name: 'x' }, columns)).toBe(false);
  });
  it('compares dates by day', () => {
    const ast = f([{ fk_column_id: 'c4', comparison_op: 'eq', comparison_sub_op: 'exactDate', value: '2024-01-31' }]);
    expect(matchesFilter(ast, { Day: '2024-01-31' }, columns)).toBe(true);
    const within = f([{ fk_column_id: 'c4', comparison_op: 'isWithin', comparison_sub_op: 'pastWeek' }]);
    expect(matchesFilter(within, { Day: '2024-01-30' }, columns, new Date('2024-02-02T00:00:00Z'))).toBe(true);
    expect(matchesFilter(within, { Day: '2024-01-01' }, columns, new Date('2024-02-02T00:00:00Z'))).toBe(false);
  });
});

describe('SSRF address check', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['::1', 'loopback'], ['10.1.2.3', 'private'], ['192.168.0.1', 'private'], ['fd00::1', 'private'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'], ['::ffff:127.0.0.1', 'mapped'], ['::ffff:a9fe:a9fe', 'mapped'],
    ['0.0.0.0', 'reserved'], ['8.8.8.8', 'public'], ['2606:4700::1111', 'public'],
  ])('%s is %s', (ip, kind) => expect(classifyTarget(ip)).toBe(kind));
  it('the flag allows loopback and private but never metadata or mapped addresses', () => {
    expect(refusalOf('127.0.0.1', true)).toBeNull();
    expect(refusalOf('10.0.0.1', true)).toBeNull();
    expect(refusalOf('169.254.169.254', true)).toMatch(/not allowed/);
    expect(refusalOf('::ffff:127.0.0.1', true)).toMatch(/not allowed/);
    expect(refusalOf('127.0.0.1', false)).toMatch(/not allowed/);
  });
  it('refuses non-http schemes and invalid URLs', () => {
    expect(urlRefusal('file:///etc/passwd')).toMatch(/scheme/);
    expect(urlRefusal('gopher://x')).toMatch(/scheme/);
    expect(urlRefusal('not a url')).toMatch(/Invalid URL/);
    expect(urlRefusal('https://example.com/x')).toBeNull();
  });
});

describe('Standard Webhooks signature', () => {
  it('signs id.timestamp.body with the base64 key and verifies', () => {
    const secret = newHookSecret();
    const headers = webhookHeaders(secret, 'msg_1', '{"a":1}', 1_700_000_000_000);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBe(signWebhook(secret, 'msg_1', 1700000000, '{"a":1}'));
    expect(verifyWebhook(secret, headers, '{"a":1}')).toBe(true);
    expect(verifyWebhook(secret, headers, '{"a":2}')).toBe(false);
  });
  it('matches the reference vector of the Standard Webhooks spec', () => {
    const sig = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('request rendering and retries', () => {
  const payload = { type: 'records.after.insert', id: 'u', base_id: 'p1', version: 'v2', data: { table_id: 'm1', table_name: 'Items', rows: [{ Id: 1 }] } };
  it('renders templates without escaping and keeps {{json data}} equal to the payload', () => {
    const req = renderRequest({
      path: 'http://h/x/{{ data.table_name }}', body: '{{ json data }}', headers: [{ name: 'X-U', value: '{{ user.email }}', enabled: true }],
      parameters: [{ name: 'q', value: '<{{ data.table_id }}>', enabled: true }, { name: 'off', value: '1', enabled: false }],
    }, payload, { email: 'a&b@x.y' });
    expect(req.url).toBe('http://h/x/Items?q=%3Cm1%3E');
    expect(JSON.parse(req.body)).toEqual(payload);
    expect(req.headers['x-u']).toBe('a&b@x.y');
    const rows = renderRequest({ path: 'http://h/', body: { rows: '{{ json data.rows }}' } }, payload, {});
    expect(JSON.parse(rows.body)).toEqual({ rows: '[{"Id":1}]' });
  });
  it('honours Retry-After on 429/503 and stops on 410', () => {
    expect(nextDelayMs(1000, 429, '7')).toBe(7000);
    expect(nextDelayMs(1000, 500, '7', () => 0.5)).toBe(1000);
    expect(outcomeOf(false, 410, 1, 10)).toBe('gone');
    expect(outcomeOf(false, 500, 3, 2)).toBe('failed');
    expect(outcomeOf(false, 500, 2, 2)).toBe('retry');
  });
});
