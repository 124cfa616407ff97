import { DynamicModule, Module } from '@nestjs/common';
import { InboundCallsModule } from '../inbound-calls/inbound-calls.module';
import { SipServer } from './sip-server';

/** The inbound SIP user agent server; `voice` is AppModule's VoiceSeamModule. */
@Module({})
export class SipServerModule {
  static forRoot(voice: DynamicModule): DynamicModule {
    return {
      module: SipServerModule,
      imports: [voice, InboundCallsModule],
      providers: [SipServer],
      exports: [SipServer],
    };
  }
}
