import { z } from 'zod';
import { envInt } from '@tabula/config';

/** Who may sign up (docs/sign-up.md): anyone; the first user and invited e-mails; the first user only. */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;

/** One of {@link SIGNUP_MODES}. */
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Settings of the auth service (docs/configuration.md). Defaults never hinder honest use. */
export const authConfigSchema = z.object({
  /**
   * Sign-up: `open` anyone; `invite` the first user (super admin) and e-mails
   * invited into a base (an invitation of an unknown e-mail waits for its
   * sign-up); `closed` the first user only. Refusals: 403.
   */
  SVC_SIGNUP: z.enum(SIGNUP_MODES, { error: (issue) => `must be open, invite or closed; got ${JSON.stringify(String(issue.input).slice(0, 60))}` }).default('open'),
  /** SMTP server for outgoing mail (`smtp://user:pass@host:587`); unset → mail outbox table + log. */
  SVC_SMTP_URL: z.string().url().optional(),
  /** Sender address of outgoing mail. */
  SVC_SMTP_FROM: z.string().default('Tabula <no-reply@tabula.local>'),
  /** Failed sign-ins of one e-mail (from anywhere) in one window after which addresses it never signed in from back off. */
  SVC_AUTH_MAX_FAILURES_PER_EMAIL: envInt(10, 1),
  /** Failed sign-ins allowed per client address (any e-mail) in one window. */
  SVC_AUTH_MAX_FAILURES_PER_IP: envInt(100, 1),
  /** Failed sign-ins of one e-mail from one address before its exponential back-off starts. */
  SVC_AUTH_FREE_FAILURES: envInt(5, 1),
  /** Longest sign-in back-off in seconds. */
  SVC_AUTH_MAX_DELAY_SECONDS: envInt(900, 1),
  /** Sign-ups allowed per client address in one window. */
  SVC_AUTH_MAX_SIGNUPS_PER_IP: envInt(500, 1),
  /** Forgot-password requests allowed per e-mail in one window. */
  SVC_AUTH_MAX_FORGOT_PER_EMAIL: envInt(5, 1),
  /** Forgot-password requests allowed per client address in one window. */
  SVC_AUTH_MAX_FORGOT_PER_IP: envInt(50, 1),
  /** Length of a rate-limit window in seconds (15 minutes). */
  SVC_AUTH_RATE_WINDOW_SECONDS: envInt(900, 1),
  /**
   * Prefix of the rate-limit keys in Redis after the deployment's own
   * (`<EVENT_TOPIC_PREFIX>.auth:rl:<counter>`), so deployments sharing a Redis
   * never share counters; a test run may add its own.
   */
  SVC_AUTH_RATE_KEY_PREFIX: z.string().min(1).default('auth:rl:'),
  /** Lifetime of a refresh token in days. */
  SVC_REFRESH_TOKEN_DAYS: envInt(30, 1),
});

export type AuthConfig = z.infer<typeof authConfigSchema>;
