import 'reflect-metadata';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './platform/config/config';
import { createLogger } from './platform/logging/logger';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  const app = await createApp(config, logger);
  await app.listen({ port: config.port, host: config.host });
  const address = app.getHttpServer().address();
  logger.info({ address, dataDir: config.dataDir, testClock: config.testClock }, 'parley is listening');
}

main().catch((error) => {
  process.stderr.write(`parley failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
