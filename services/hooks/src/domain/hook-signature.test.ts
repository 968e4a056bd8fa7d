import { newHookSecret, signWebhook, verifyWebhook, webhookHeaders } from './hook-signature';

describe('Standard Webhooks signature', () => {
  it('signs id.timestamp.body with the base64 key and verifies', () => {
    const secret = newHookSecret();
    const headers = webhookHeaders(secret, 'msg_1', '{"a":1}', 1_700_000_000_000);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBe(signWebhook(secret, 'msg_1', 1700000000, '{"a":1}'));
    expect(verifyWebhook(secret, headers, '{"a":1}')).toBe(true);
    expect(verifyWebhook(secret, headers, '{"a":2}')).toBe(false);
  });
  it('secrets are whsec_ and 32 random bytes in base64; a secret without the prefix is the same key', () => {
    const a = newHookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newHookSecret()).not.toBe(a);
    expect(signWebhook(a.slice(6), 'msg_2', 1, 'b')).toBe(signWebhook(a, 'msg_2', 1, 'b'));
  });
  it('the timestamp is in whole seconds of the send time (now by default)', () => {
    const secret = newHookSecret();
    expect(webhookHeaders(secret, 'm', 'b', 1_700_000_000_999)['webhook-timestamp']).toBe('1700000000');
    const before = Math.floor(Date.now() / 1000);
    const stamped = Number(webhookHeaders(secret, 'm', 'b')['webhook-timestamp']);
    const after = Math.floor(Date.now() / 1000);
    expect(stamped >= before && stamped <= after).toBe(true);
  });
  it('a receiver accepts any one valid candidate and refuses a missing id, timestamp or signature', () => {
    const secret = newHookSecret();
    const headers = webhookHeaders(secret, 'msg_3', 'body', 1_700_000_000_000);
    const other = signWebhook(newHookSecret(), 'msg_3', 1_700_000_000, 'body');
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': `${other} ${headers['webhook-signature']}` }, 'body')).toBe(true);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': `${other} v1,short` }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': undefined }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': '' }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-timestamp': 'soon' }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-timestamp': '1700000001' }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_4' }, 'body')).toBe(false);
    // refused before any signature is compared: even one made over the text a missing field would turn into
    expect(verifyWebhook(secret, { 'webhook-timestamp': '1700000000', 'webhook-signature': signWebhook(secret, 'undefined', 1_700_000_000, 'body') }, 'body')).toBe(false);
    expect(verifyWebhook(secret, { 'webhook-id': 'msg_3', 'webhook-timestamp': 'soon', 'webhook-signature': signWebhook(secret, 'msg_3', Number.NaN, 'body') }, 'body')).toBe(false);
  });
  it('matches the reference vector of the Standard Webhooks spec', () => {
    const sig = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
