import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';

/** How long an address stays "known" for an account after a successful sign-in from it. */
const KNOWN_ADDRESS_SECONDS = 90 * 24 * 3600;

function keysOf(email: string, clientIp: string | undefined) {
  const pair = `${email}|${clientIp ?? 'unknown'}`;
  return {
    pair: `signin:pair:${pair}`, pairDelay: `signin:pair-delay:${pair}`, known: `signin:known:${pair}`,
    email: `signin:email:${email}`, emailDelay: `signin:email-delay:${email}`, ip: clientIp ? `signin:ip:${clientIp}` : undefined,
  };
}

/** 2^n seconds, capped. */
function delaySeconds(ports: AuthPorts, excess: number): number {
  return Math.min(2 ** Math.min(excess, 30), ports.config.SVC_AUTH_MAX_DELAY_SECONDS);
}

/**
 * Refuses (429 with `Retry-After`) a sign-in that must wait: this e-mail from
 * this address is inside its back-off; this address has failed too often
 * for any account; or this e-mail has failed too often overall and the
 * address is not one the account signed in from before. A known address is
 * never held back by failures from elsewhere, so nobody can lock the owner out.
 */
export async function assertMaySignIn(ports: AuthPorts, email: string, clientIp?: string): Promise<void> {
  const k = keysOf(email, clientIp);
  const limiter = ports.rateLimiter;
  const [pairWait, ipWait, known] = await Promise.all([
    limiter.blockedFor(k.pairDelay, 1),
    k.ip ? limiter.blockedFor(k.ip, ports.config.SVC_AUTH_MAX_FAILURES_PER_IP) : 0,
    limiter.blockedFor(k.known, 1).then((left) => left > 0),
  ]);
  const emailWait = known ? 0 : await limiter.blockedFor(k.emailDelay, 1);
  const wait = Math.max(pairWait, ipWait, emailWait);
  if (wait > 0) throw errors.tooManyRequests(wait);
}

/**
 * Counts a failed sign-in per e-mail+address, per e-mail and per address.
 * Past `SVC_AUTH_FREE_FAILURES` for the pair, the pair waits 1, 2, 4… s
 * (capped at `SVC_AUTH_MAX_DELAY_SECONDS`) before its next try; past
 * `SVC_AUTH_MAX_FAILURES_PER_EMAIL` for the e-mail, unknown addresses wait likewise.
 */
export async function recordSignInFailure(ports: AuthPorts, email: string, clientIp?: string): Promise<void> {
  const k = keysOf(email, clientIp);
  const { rateLimiter: limiter, config } = ports;
  const window = config.SVC_AUTH_RATE_WINDOW_SECONDS;
  const [pairCount, emailCount] = await Promise.all([
    limiter.hit(k.pair, window), limiter.hit(k.email, window), k.ip ? limiter.hit(k.ip, window) : 0,
  ]);
  const pending: Promise<unknown>[] = [];
  if (pairCount >= config.SVC_AUTH_FREE_FAILURES) pending.push(limiter.hit(k.pairDelay, delaySeconds(ports, pairCount - config.SVC_AUTH_FREE_FAILURES)));
  if (emailCount >= config.SVC_AUTH_MAX_FAILURES_PER_EMAIL) {
    pending.push(limiter.hit(k.emailDelay, delaySeconds(ports, emailCount - config.SVC_AUTH_MAX_FAILURES_PER_EMAIL)));
  }
  await Promise.all(pending);
}

/** A successful sign-in clears the pair's back-off and makes the address known for the account. */
export async function recordSignInSuccess(ports: AuthPorts, email: string, clientIp?: string): Promise<void> {
  const k = keysOf(email, clientIp);
  const limiter = ports.rateLimiter;
  await Promise.all([limiter.reset(k.pair), limiter.reset(k.pairDelay), limiter.reset(k.known)]);
  await limiter.hit(k.known, KNOWN_ADDRESS_SECONDS);
}
