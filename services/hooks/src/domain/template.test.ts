import { checkTemplate, literalClosingBraces, renderTemplate, templateContext } from './template';

const payload = { type: 'records.after.insert', id: 'e1', base_id: 'b1', version: 'v2', data: { table_id: 't1', table_name: 'Items', rows: [{ Id: 1, Name: 'x' }] } };
const context = templateContext(payload, { email: 'me@example.com' });
const render = (template: string): unknown => JSON.parse(renderTemplate(template, context));

describe('hook body templates inside JSON', () => {
  it.each([
    ['{"payload":{{ json data }}}', { payload }],
    ['{"payload":{{{ json data }}}}', { payload }],
    ['{"rows":{{ json data.rows }}}', { rows: payload.data.rows }],
    ['{"rows":{{{ json data.rows }}}}', { rows: payload.data.rows }],
    ['{"a":{"rows":{{ json data.rows }}}}', { a: { rows: payload.data.rows } }],
    ['{"a":{"rows":{{~ json data.rows ~}}}}', { a: { rows: payload.data.rows } }],
    ['{"table":{"name":"{{ data.table_name }}"}}', { table: { name: 'Items' } }],
    ['{"table":{{ json data.table_name }}}', { table: 'Items' }],
    ['{"user":{"email":"{{ user.email }}"}}', { user: { email: 'me@example.com' } }],
    ['{"email":{{{ json user.email }}}}', { email: 'me@example.com' }],
    ['{"rows":[{{#each data.rows}}{"id":{{ Id }}}{{/each}}]}', { rows: [{ id: 1 }] }],
  ])('%s', (template, expected) => {
    expect(() => checkTemplate(template)).not.toThrow();
    expect(render(template)).toEqual(expected);
  });

  it('leaves escaped mustaches, comments and unclosed braces alone', () => {
    expect(renderTemplate('\\{{ data.table_name }}}', context)).toBe('{{ data.table_name }}}');
    expect(renderTemplate('{{!-- note --}}}', context)).toBe('}');
    expect(literalClosingBraces('{"a":1}')).toBe('{"a":1}');
    expect(() => checkTemplate('{"rows":{{ json data.rows }')).toThrow(/Parse error|Expecting/);
    expect(() => checkTemplate('{{#if data}')).toThrow();
  });
});
