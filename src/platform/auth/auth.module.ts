import { Global, Module } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { CONFIG, type Config } from '../config/config';
import { ReadModels } from '../../read-models/read-models.service';
import { KeyAuthenticator } from './key-authenticator';
import { KEY_RATE_LIMITER, KeyGate } from './key.guard';
import { RateLimiter } from './rate-limiter';
import { ServerSecret } from './server-secret';

/** Keys as the credential of every API: digesting, lookup, guards, per-key rate limits (the server secret comes from PlatformModule). */
@Global()
@Module({
  providers: [
    {
      provide: KeyAuthenticator,
      inject: [ReadModels, ServerSecret, Clock],
      useFactory: (r: ReadModels, s: ServerSecret, c: Clock) => new KeyAuthenticator(r, s, c),
    },
    {
      provide: KEY_RATE_LIMITER,
      inject: [CONFIG],
      useFactory: (config: Config) => new RateLimiter(config.rateLimitPerKey),
    },
    KeyGate,
  ],
  exports: [KeyAuthenticator, KEY_RATE_LIMITER, KeyGate],
})
export class AuthModule {}
