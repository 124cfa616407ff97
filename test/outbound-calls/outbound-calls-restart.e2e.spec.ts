import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { advanceClock } from '../helpers/keys-fixtures';
import { startTestApp } from '../helpers/test-app';
import { callingAccount, callStatus, placeCall, statusBecomes } from './outbound-calls-fixture';

describe('outbound calls across a restart', () => {
  it('a call queued before a restart goes on after it (durable timers, the process manager from its checkpoint)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-calls-restart-'));
    try {
      const first = await startTestApp({ PARLEY_TEST_CLOCK: '1', OUTBOUND_MAX_CONCURRENT_CALLS: '1' }, dir);
      const acme = await callingAccount(first, 'Acme', 'Hello again', '+15550100001');
      const sid = (await placeCall(first, acme.token, { to_number: '+15551234567' })).body.call_sid;
      expect((await callStatus(first, acme.token, sid)).body.status).toBe('queued');
      await first.close();

      const second = await startTestApp({ PARLEY_TEST_CLOCK: '1', OUTBOUND_MAX_CONCURRENT_CALLS: '1' }, dir);
      try {
        // the one line is still held by the call in progress
        expect((await placeCall(second, acme.token, { to_number: '+15551234567' })).status).toBe(429);
        await advanceClock(second, 10);
        expect(await statusBecomes(second, acme.token, sid, 'success')).toEqual({
          call_sid: sid,
          status: 'success',
          reason: null,
        });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
