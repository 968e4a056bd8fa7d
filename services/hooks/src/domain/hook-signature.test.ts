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
  it('matches the reference vector of the Standard Webhooks spec', () => {
    const sig = signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
