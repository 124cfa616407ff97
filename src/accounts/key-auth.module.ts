import { Module } from '@nestjs/common';
import { AgentDirectoryModule } from './agent-directory.module';
import { ACCOUNT_DIRECTORY } from '../platform/auth/account-directory';
import { KeyAuthenticator } from '../platform/auth/key-authenticator';
import { KEY_LOOKUP } from '../platform/auth/key-lookup';
import { KEY_RATE_LIMITER, KeyGate } from '../platform/auth/key.guard';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { CONFIG, type Config } from '../platform/config/config';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ReadModelAccountDirectory } from './read-model-account-directory';
import { ReadModelKeyLookup } from './read-model-key-lookup';

/**
 * Keys as the credential of every API: the platform's key guard and authenticator, bound to the
 * accounts' read models through the ports the platform defines (KEY_LOOKUP, ACCOUNT_DIRECTORY;
 * AGENT_DIRECTORY comes from AgentDirectoryModule). The server secret and clock come from PlatformModule.
 */
@Module({
  imports: [ReadModelsModule, AgentDirectoryModule],
  providers: [
    { provide: KEY_LOOKUP, useClass: ReadModelKeyLookup },
    { provide: ACCOUNT_DIRECTORY, useClass: ReadModelAccountDirectory },
    KeyAuthenticator,
    KeyGate,
    // a value built from configuration: the per-key limit
    {
      provide: KEY_RATE_LIMITER,
      inject: [CONFIG],
      useFactory: (config: Config) => new RateLimiter(config.rateLimitPerKey),
    },
  ],
  exports: [KeyAuthenticator, KeyGate],
})
export class KeyAuthModule {}
