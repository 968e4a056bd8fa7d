import type { Context } from 'koa';
import type { Session } from '../domain/sessions/issue-session';

/** Name of the refresh-token cookie (compat-notes "Auth"). */
export const REFRESH_COOKIE = 'refresh_token';

/** True behind https: the connection itself or the proxy's `x-forwarded-proto`. */
function isHttps(ctx: Context): boolean {
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return ctx.protocol === 'https' || forwarded === 'https';
}

/**
 * Written by hand rather than with `ctx.cookies`: Koa refuses `secure` cookies on
 * a plain connection, yet behind the gateway the connection is plain while the
 * client's is https.
 */
function cookieHeader(ctx: Context, value: string, maxAgeSeconds: number): string {
  const parts = [`${REFRESH_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (isHttps(ctx)) parts.push('Secure');
  return parts.join('; ');
}

/** Sets the refresh cookie of a new session. */
export function setRefreshCookie(ctx: Context, session: Session): void {
  ctx.append('Set-Cookie', cookieHeader(ctx, session.refreshToken, session.refreshMaxAgeSeconds));
}

/** Clears the refresh cookie. */
export function clearRefreshCookie(ctx: Context): void {
  ctx.append('Set-Cookie', cookieHeader(ctx, '', 0));
}

/** The refresh token the client presented, if any. */
export function readRefreshCookie(ctx: Context): string | undefined {
  return ctx.cookies.get(REFRESH_COOKIE) || undefined;
}

/** The client address the gateway saw (rate limits). */
export function clientIpOf(ctx: Context): string | undefined {
  return ctx.get('x-tabula-client-ip') || undefined;
}
