import { recordPersistently } from './process-delivery';

describe('recordPersistently', () => {
  it('retries a failing write until it succeeds', async () => {
    let calls = 0;
    await recordPersistently(async () => {
      calls++;
      if (calls < 3) throw new Error('Connection terminated unexpectedly');
    }, [1, 1, 1]);
    expect(calls).toBe(3);
  });

  it('gives up after the last delay with the write\'s error', async () => {
    let calls = 0;
    await expect(recordPersistently(async () => {
      calls++;
      throw new Error('still down');
    }, [1, 1])).rejects.toThrow('still down');
    expect(calls).toBe(3);
  });
});
