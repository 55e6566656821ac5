import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { Dataset } from '../datasets/dataset.js';
import { bundlesOf } from '../datasets/dataset-list.js';
import { openDatabase } from './open-database.js';

/** How long in-flight requests get to finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Serves until SIGTERM or SIGINT, then stops accepting, finishes in-flight requests and exits. */
export async function serve(config: Config, datasets: readonly Dataset[]): Promise<void> {
  const { db } = await openDatabase(config, bundlesOf(datasets), { backgroundCheckpoints: true });
  const app = await buildApp({ config, db, datasets, deliver: config.webhooks.serveDelivers });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Keep-alive connections that finish their last request after close began stay open unless swept.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    const cut = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    try {
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    } finally {
      clearInterval(sweep);
      clearTimeout(cut);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}
