import { classifyTarget, refusalOf, urlRefusal } from '../src';

/** The SSRF address policy as hooks (webhook targets) and integrations (database hosts) rely on it. */
describe('SSRF address check (webhook targets)', () => {
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

describe('host policy (integration hosts)', () => {
  it('refuses metadata and link-local always, loopback/private unless allowed', () => {
    expect(classifyTarget('169.254.169.254')).toBe('link-local');
    expect(refusalOf('169.254.169.254', true)).toMatch(/link-local/);
    expect(refusalOf('127.0.0.1', false)).toMatch(/loopback/);
    expect(refusalOf('127.0.0.1', true)).toBeNull();
    expect(refusalOf('10.1.2.3', false)).toMatch(/private/);
    expect(refusalOf('::ffff:127.0.0.1', true)).toMatch(/mapped/);
    expect(refusalOf('8.8.8.8', false)).toBeNull();
  });
});
