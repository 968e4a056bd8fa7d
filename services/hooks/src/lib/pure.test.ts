import { classifyTarget, refusalOf, urlRefusal } from '@tabula/http';
import { newHookSecret, signWebhook, verifyWebhook, webhookHeaders } from './signature';
import { renderRequest } from '../delivery/render-request';
import { nextDelayMs, outcomeOf } from '../delivery/retry-policy';

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
