import { ProcessManagers } from '../../src/process-managers/process-managers';
import { Timers } from '../../src/process-managers/timers';
import { startTestApp, type TestApp } from '../helpers/test-app';

// Every process manager and timer handler reaches the app through one catalogue: the providers
// marked @RunsBehindTheLog() (src/process-managers/behind-the-log.ts). A context whose provider
// lost its mark, or a second way of registering, shows here as a missing or extra name.
describe('what runs behind the log, found through DI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('registers every context’s process managers once, and all of them run', () => {
    const status = t.app.get(ProcessManagers).status();
    expect(status.map((m) => m.name).sort()).toEqual([
      'agent-test-runs',
      'chat-api-idle',
      'conversation-analysis',
      'external-events',
      'messaging-delayed-responses',
      'messaging-session-timers',
      'outbound-calls',
      'sms-sessions',
      'topic-vectors',
      'webhook-events',
    ]);
    expect(status.every((m) => m.active)).toBe(true);
  });

  it('hands every timer owner to its context’s handler', () => {
    expect(t.app.get(Timers).owners()).toEqual(
      [
        'alerts',
        'chat-api-idle',
        'inbound-calls:watchdog',
        'messaging-handoff-timeout',
        'messaging-session-expiry',
        'outbound-calls:simulator',
        'outbound-calls:watchdog',
        'sms-send',
        'sms-session',
        'voice-recording-retention',
      ].sort(),
    );
  });
});
