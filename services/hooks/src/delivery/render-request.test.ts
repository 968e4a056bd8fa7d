import { renderRequest } from './render-request';

describe('request rendering', () => {
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
});
