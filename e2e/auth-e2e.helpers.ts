import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { TestApi, startTestStack, type ApiReply, type TestStack } from '@tabula/testing';
import { authService } from '../services/auth/src/service';
import { gatewayService } from '../services/gateway/src/service';

/**
 * Only auth and the gateway: these tests need nothing else, and loading every
 * service (`allServices`) would tie them to the state of services being built
 * in parallel.
 */
const services = [authService, gatewayService];

/** The JWT secret the auth e2e stacks sign with, so tests can forge tokens. */
export const TEST_JWT_SECRET = 'auth-e2e-jwt-secret-0123456789abcdef';

/** A response as the tests look at it. */
export type Reply = ApiReply;

/** A whole Tabula with a direct handle on its database (to read the mail outbox). */
export interface AuthStack {
  stack: TestStack;
  db: Knex;
  call(method: string, path: string, options?: { body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Reply>;
  stop(): Promise<void>;
}

/** Starts every service on a fresh database with a known JWT secret and isolated rate-limit keys. */
export async function startAuthStack(env: Record<string, string> = {}): Promise<AuthStack> {
  const stack = await startTestStack(services, {
    SVC_JWT_SECRET: TEST_JWT_SECRET, SVC_AUTH_RATE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`, ...env,
  });
  const db = knex({ client: 'pg', connection: stack.database.url, pool: { min: 0, max: 2 } });
  const api = new TestApi(stack.url);
  return {
    stack,
    db,
    call: (method, path, options = {}) => api.call(method, path, options),
    async stop() {
      await db.destroy();
      await stack.stop();
    },
  };
}

export { uniqueEmail } from '@tabula/testing';

/** The `refresh_token` value of a Set-Cookie list. */
export function refreshCookie(cookies: string[]): string | undefined {
  const line = cookies.find((c) => c.startsWith('refresh_token='));
  return line ? line.split(';')[0].slice('refresh_token='.length) : undefined;
}

/** The reset token of the newest mail to `to` in the outbox. */
export async function resetTokenFromOutbox(db: Knex, to: string): Promise<string> {
  // Reset mails are queued after forgot-password answers: wait for one not handed out before.
  for (let tries = 0; tries < 60; tries += 1) {
    const mail = await db.withSchema('auth').table('mail_outbox').where({ to }).orderBy('id', 'desc').first();
    const match = /Reset token: (\S+)/.exec(mail?.body ?? '');
    if (match && !handedOut.has(match[1])) {
      handedOut.add(match[1]);
      return match[1];
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no reset mail for ${to}`);
}

/** Reset tokens already returned by {@link resetTokenFromOutbox}. */
const handedOut = new Set<string>();
