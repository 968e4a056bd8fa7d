import { AppError, appError } from './app-error';
import type { ServiceName } from './service-client';

/** Why a call to another service failed (gateway proxy, internal client), as it is answered and logged. */
export interface ProxyFailure {
  /** 503: the service could not be reached; 504: it did not answer in time; 502: anything else. */
  status: 502 | 503 | 504;
  /** Short machine-readable reason for the log (`refused`, `reset`, `timeout`, ...). */
  reason: string;
  /** The error code found on the error or its cause (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...). */
  code?: string;
}

/** Connection-level failures before any response: the upstream is really unreachable. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ETIMEDOUT: 'connect-timeout',
};

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The first error code on the error or along its `cause` chain. */
export function errorCode(err: unknown): string | undefined {
  for (let current = err, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Maps an error thrown by the upstream call (before the response headers
 * arrived) to the gateway's answer. Only a refused, reset or unresolvable
 * connection is a 503; a service too slow to answer is a 504; any other
 * failure (a request the proxy could not send, a malformed reply) is a 502.
 */
export function classifyProxyError(err: unknown): ProxyFailure {
  const code = errorCode(err);
  if (code && UNREACHABLE[code]) return { status: 503, reason: UNREACHABLE[code], code };
  if (code && TIMEOUTS.has(code)) return { status: 504, reason: 'timeout', code };
  return { status: 502, reason: 'bad-gateway', code };
}

/** The AppError a failure is answered with (NocoDB's error body); the original error is its `cause`. */
export function proxyFailureError(failure: ProxyFailure, service: ServiceName, cause?: unknown): AppError {
  const error = failure.status === 503
    ? appError('ERR_SERVICE_UNAVAILABLE', `Service '${service}' is unavailable`)
    : failure.status === 504
      ? appError('ERR_GATEWAY_TIMEOUT', `Service '${service}' did not answer in time`)
      : appError('ERR_BAD_GATEWAY', `Service '${service}' answered with an error the caller could not read`);
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}
