import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';

type Kind = 'signup' | 'forgot';

/** A counter key and its limit per window. */
interface Limit {
  key: string;
  max: number;
}

/**
 * Forgot-password counts per e-mail and per address; sign-up per address only
 * (a per-e-mail count would tell which e-mails exist).
 */
function limitsOf(ports: AuthPorts, kind: Kind, email: string, clientIp: string | undefined): Limit[] {
  const c = ports.config;
  const out: Limit[] = kind === 'forgot' ? [{ key: `forgot:email:${email}`, max: c.SVC_AUTH_MAX_FORGOT_PER_EMAIL }] : [];
  if (clientIp) out.push({ key: `${kind}:ip:${clientIp}`, max: kind === 'forgot' ? c.SVC_AUTH_MAX_FORGOT_PER_IP : c.SVC_AUTH_MAX_SIGNUPS_PER_IP });
  return out;
}

/** 429 with Retry-After when the e-mail or the client address is over its limit. */
export async function assertNotLimited(ports: AuthPorts, kind: Kind, email: string, clientIp?: string): Promise<void> {
  const waits = await Promise.all(limitsOf(ports, kind, email, clientIp).map((l) => ports.rateLimiter.blockedFor(l.key, l.max)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw errors.tooManyRequests(wait);
}

/** Counts one attempt (a sign-up, a forgot-password request) against e-mail and address. */
export async function countAttempt(ports: AuthPorts, kind: Kind, email: string, clientIp?: string): Promise<void> {
  const window = ports.config.SVC_AUTH_RATE_WINDOW_SECONDS;
  await Promise.all(limitsOf(ports, kind, email, clientIp).map((l) => ports.rateLimiter.hit(l.key, window)));
}
