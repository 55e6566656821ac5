import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from './open-database.js';

/** Serves until SIGTERM or SIGINT, then stops accepting, finishes in-flight requests and exits. */
export async function serve(config: Config): Promise<void> {
  const { db } = await openDatabase(config);
  const app = await buildApp({ config, db });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}
