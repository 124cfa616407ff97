import type { Logger } from 'pino';
import type { CallProgress, Carrier } from '../carrier.port';
import type { QueuedCall } from '../outbound-call.events';
import { SipCall, type SipOptions, type SipVoice } from './sip-call';

/** Places calls through a SIP trunk over UDP or TCP; each call is its own user agent client (SipCall). */
export class SipCarrier implements Carrier {
  readonly name = 'sip' as const;
  private readonly calls = new Map<string, SipCall>();

  constructor(
    private readonly options: SipOptions,
    private readonly progress: CallProgress,
    private readonly logger: Logger,
    private readonly media: SipVoice = { audio: null, voice: null },
  ) {}

  async place(call: QueuedCall): Promise<void> {
    // asked again for a call already on the wire (a process manager replay): nothing to do
    if (this.calls.has(call.callSid)) return;
    const sip = new SipCall(call, this.options, this.progress, this.logger, this.media);
    this.calls.set(call.callSid, sip);
    void sip.done.then(() => this.calls.delete(call.callSid));
    await sip.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.calls.values()].map((call) => call.abort()));
  }
}
