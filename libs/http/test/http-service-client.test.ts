import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@tabula/testing';
import { AppError, HttpServiceClient } from '@tabula/http';

/** The internal client maps a failed call like the gateway's proxy: 503 only for an unreachable service. */
describe('HttpServiceClient error mapping', () => {
  const failure = async (client: HttpServiceClient): Promise<AppError> => {
    try {
      await client.request('data', { method: 'GET', path: '/internal/x' });
    } catch (err) {
      return err as AppError;
    }
    throw new Error('the call should have failed');
  };

  it('refused connection: 503 ERR_SERVICE_UNAVAILABLE, the socket error kept as the cause', async () => {
    const client = new HttpServiceClient({ data: `http://127.0.0.1:${await freePort()}` }, () => 'identity');
    const error = await failure(client);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, code: 'ERR_SERVICE_UNAVAILABLE' });
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    await client.close();
  });

  it('a service that does not answer in time: 504 ERR_GATEWAY_TIMEOUT', async () => {
    const server = http.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new HttpServiceClient({ data: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, () => 'identity', 300);
    expect(await failure(client)).toMatchObject({ status: 504, code: 'ERR_GATEWAY_TIMEOUT' });
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
