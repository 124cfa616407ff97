import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { InboundCallsService } from '../inbound-calls/inbound-calls.service';
import {
  branchOf,
  buildResponse,
  cseqOf,
  headerOf,
  parseSipMessage,
  serialize,
  tagOf,
  type SipRequest,
  type SipResponse,
} from './sip-message';
import { CONFIG, type Config, type SipServerConfig } from '../platform/config/config';
import { ConnectionCap } from '../platform/limits/connection-cap';
import { LOGGER } from '../platform/logging/logger';
import { addressTestOf } from '../platform/net/cidr';
import { CALL_AUDIO_FACTORY, type CallAudioFactory } from '../voice/call-media.port';
import { VOICE_CALLS, type VoiceCalls } from '../voice/voice-calls.port';
import { ALLOW, InboundSipCall, TRANSACTION_MS } from './inbound-sip-call';
import { MAX_SIP_MESSAGE_BYTES } from './sip-framing';
import { malformation } from './sip-requests';
import { SipListener, type SipPeer } from './sip-transport';
import { SourceRate } from './source-rate';

/** Non-INVITE responses kept for retransmitted requests (§17.2.2: Timer J), at most this many. */
const MAX_REMEMBERED = 10_000;
/** How long a 503 tells a caller to stay away while the process is full. */
const FULL_RETRY_AFTER_S = 30;

/**
 * The SIP user agent server (docs/sip.md): listens on UDP and TCP, answers INVITEs to provisioned
 * numbers through InboundCallsService, OPTIONS, CANCEL, BYE and in-dialog re-INVITEs. Off unless
 * SIP_LISTEN_PORT is set. A malformed message is answered 400 where a response can be addressed
 * (else dropped), an oversized one 513, a flood from one address dropped.
 */
@Injectable()
export class SipServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly settings: SipServerConfig | null;
  private listener: SipListener | null = null;
  private port = 0;
  private readonly calls = new Map<string, InboundSipCall>();
  private readonly remembered = new Map<string, { text: string; until: number }>();
  private readonly rate: SourceRate;
  private readonly connections: ConnectionCap;
  private stopping = false;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly inbound: InboundCallsService,
    @Inject(CALL_AUDIO_FACTORY) private readonly audio: CallAudioFactory | null,
    @Inject(VOICE_CALLS) private readonly voice: VoiceCalls,
  ) {
    this.settings = config.sipServer;
    this.rate = new SourceRate(config.sipServer?.ratePerSource ?? 1);
    this.connections = new ConnectionCap(
      config.edge.maxConnectionsPerAddress,
      addressTestOf(config.edge.trustedProxies),
    );
  }

  /** Where it listens (null when off): tests read the port the OS picked. */
  address(): { host: string; port: number } | null {
    return this.listener && this.settings ? { host: this.settings.host, port: this.port } : null;
  }

  /** Calls ringing or connected on this process. */
  activeCalls(): number {
    let n = 0;
    for (const call of this.calls.values()) if (call.active) n++;
    return n;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.settings) return;
    if (!this.audio)
      this.logger.warn(
        'SIP server: no call audio is wired; calls are answered with an inactive stream (signalling only)',
      );
    this.listener = new SipListener(
      this.settings.host,
      this.settings.port,
      (text, peer) => this.receive(text, peer),
      this.logger,
      this.connections,
    );
    this.port = await this.listener.start();
    this.logger.info({ host: this.settings.host, port: this.port }, 'SIP server listening (UDP and TCP)');
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.listener) return;
    this.stopping = true;
    await Promise.all([...this.calls.values()].map((call) => call.stop()));
    // the calls' flows finish what they record before the store closes
    await Promise.race([
      Promise.all([...this.calls.values()].map((call) => call.ended)),
      new Promise((resolve) => setTimeout(resolve, 5000).unref()),
    ]);
    await this.listener.close();
    this.listener = null;
  }

  private receive(text: string, peer: SipPeer): void {
    if (!this.rate.allow(peer.address)) return;
    const message = parseSipMessage(text);
    if (!message) return;
    if (message.kind === 'response') return this.onResponse(message);
    const problem = malformation(message);
    if (problem) {
      // a response needs a Via to go back on; without one there is no one to tell
      if (headerOf(message, 'via')) this.reply(peer, buildResponse(message, 400, problem));
      return;
    }
    if (Buffer.byteLength(text) > MAX_SIP_MESSAGE_BYTES)
      return this.reply(peer, buildResponse(message, 513, 'Message Too Large'));
    if (message.method === 'ACK') return this.calls.get(headerOf(message, 'call-id')!)?.onAck(message);
    const key = this.transactionKey(message);
    const again = this.remembered.get(key);
    if (again && again.until > Date.now()) return peer.send(again.text);
    switch (message.method) {
      case 'INVITE':
        return this.onInvite(message, peer);
      case 'CANCEL':
        return this.answer(peer, key, this.onCancel(message));
      case 'OPTIONS':
        if (!tagOf(headerOf(message, 'to')))
          return this.answer(
            peer,
            key,
            buildResponse(message, 200, 'OK', {
              headers: [
                ['Allow', ALLOW],
                ['Accept', 'application/sdp'],
              ],
            }),
          );
        return this.inDialog(message, peer, key);
      default:
        if (tagOf(headerOf(message, 'to'))) return this.inDialog(message, peer, key);
        return this.answer(
          peer,
          key,
          buildResponse(message, 405, 'Method Not Allowed', { headers: [['Allow', ALLOW]] }),
        );
    }
  }

  private onInvite(invite: SipRequest, peer: SipPeer): void {
    const callId = headerOf(invite, 'call-id')!;
    const existing = this.calls.get(callId);
    if (tagOf(headerOf(invite, 'to'))) {
      if (!existing) return this.reply(peer, buildResponse(invite, 481, 'Call/Transaction Does Not Exist'));
      existing.onInDialog(invite, peer);
      return;
    }
    if (existing) {
      // the same INVITE again (a retransmission), or a fork of it: the answer we gave
      if (existing.inviteBranch === branchOf(invite)) existing.onInviteRetransmission();
      else this.reply(peer, buildResponse(invite, 482, 'Loop Detected'));
      return;
    }
    if (this.stopping) return this.reply(peer, buildResponse(invite, 503, 'Service Unavailable'));
    if (this.activeCalls() >= this.settings!.maxCalls)
      return this.reply(
        peer,
        buildResponse(invite, 503, 'Service Unavailable', { headers: [['Retry-After', String(FULL_RETRY_AFTER_S)]] }),
      );
    const call = new InboundSipCall(invite, peer, {
      inbound: this.inbound,
      audio: this.audio,
      voice: this.voice,
      logger: this.logger,
      mediaBindHost: this.settings!.host,
      publicHost: this.settings!.publicHost,
      publicPort: this.port,
      answerDelayMs: this.settings!.answerDelayMs,
      holdLimitMs: this.settings!.holdLimitMs,
      forget: (id) => {
        if (this.calls.get(id) === call) this.calls.delete(id);
      },
    });
    this.calls.set(callId, call);
    void call.start();
  }

  private onCancel(cancel: SipRequest): SipResponse {
    const call = this.calls.get(headerOf(cancel, 'call-id')!);
    // a CANCEL matches its INVITE by branch (§9.2)
    if (!call || call.inviteBranch !== branchOf(cancel))
      return buildResponse(cancel, 481, 'Call/Transaction Does Not Exist');
    call.onCancel();
    return buildResponse(cancel, 200, 'OK');
  }

  private inDialog(request: SipRequest, peer: SipPeer, key: string): void {
    const call = this.calls.get(headerOf(request, 'call-id')!);
    const response = call
      ? call.onInDialog(request, peer)
      : buildResponse(request, 481, 'Call/Transaction Does Not Exist');
    if (response) this.answer(peer, key, response);
  }

  private onResponse(response: SipResponse): void {
    const callId = headerOf(response, 'call-id');
    if (callId && cseqOf(response)) this.calls.get(callId)?.onResponse(response);
  }

  /** Answers a non-INVITE request and keeps the answer for its retransmissions (§17.2.2). */
  private answer(peer: SipPeer, key: string, response: SipResponse): void {
    const text = serialize(response);
    peer.send(text);
    const now = Date.now();
    if (this.remembered.size >= MAX_REMEMBERED)
      for (const [k, v] of this.remembered)
        if (v.until <= now || this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(k);
    this.remembered.set(key, { text, until: now + TRANSACTION_MS });
  }

  private reply(peer: SipPeer, response: SipResponse): void {
    peer.send(serialize(response));
  }

  private transactionKey(request: SipRequest): string {
    return `${headerOf(request, 'call-id')}|${branchOf(request)}|${request.method}|${cseqOf(request)?.seq}`;
  }
}
