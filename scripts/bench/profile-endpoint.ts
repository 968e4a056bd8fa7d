import type http from 'node:http';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

/**
 * A bench server's `GET /__bench/profile?start` (a CPU profile of its main
 * thread from now on, sampled every 100 µs) and `GET /__bench/profile`
 * (stop; the profile as JSON): a profile of a load window without the
 * server's start-up (records-serve-profile.ts).
 */
export async function profileEndpoint(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (!session) { session = new Session(); session.connect(); await session.post('Profiler.enable'); }
  if (req.url?.includes('start')) {
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    res.end('{}');
    return;
  }
  const { profile } = await session.post('Profiler.stop');
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(profile));
}
