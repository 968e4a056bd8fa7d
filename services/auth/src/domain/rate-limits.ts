import { errors } from '@tabula/http';
import type { AuthPorts } from '../ports';

type Kind = 'signin' | 'forgot';

function keys(kind: Kind, email: string, clientIp: string | undefined): string[] {
  return [`${kind}:email:${email}`, ...(clientIp ? [`${kind}:ip:${clientIp}`] : [])];
}

function limits(ports: AuthPorts, kind: Kind): [number, number] {
  const c = ports.config;
  return kind === 'signin'
    ? [c.SVC_AUTH_MAX_FAILURES_PER_EMAIL, c.SVC_AUTH_MAX_FAILURES_PER_IP]
    : [c.SVC_AUTH_MAX_FORGOT_PER_EMAIL, c.SVC_AUTH_MAX_FORGOT_PER_IP];
}

/** 429 with Retry-After when the e-mail or the client address is over its limit. */
export async function assertNotLimited(ports: AuthPorts, kind: Kind, email: string, clientIp?: string): Promise<void> {
  const [perEmail, perIp] = limits(ports, kind);
  const waits = await Promise.all(keys(kind, email, clientIp).map((key, i) => ports.rateLimiter.blockedFor(key, i === 0 ? perEmail : perIp)));
  const wait = Math.max(...waits);
  if (wait > 0) throw errors.tooManyRequests(wait);
}

/** Counts one attempt (a failed sign-in, a forgot-password request) against e-mail and address. */
export async function countAttempt(ports: AuthPorts, kind: Kind, email: string, clientIp?: string): Promise<void> {
  const window = ports.config.SVC_AUTH_RATE_WINDOW_SECONDS;
  await Promise.all(keys(kind, email, clientIp).map((key) => ports.rateLimiter.hit(key, window)));
}
