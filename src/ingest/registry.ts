import type { IngestCommand } from './core/ingest-command.js';
import { esefCommands } from './sources/esef/esef-commands.js';
import { secCommands } from './sources/sec/sec-commands.js';

/**
 * Every source's `ingest` commands, one line per source (DESIGN §15). Only the composition root
 * (`src/cli/main.ts`) imports this list; `docs/new-source.md` walks through adding a line.
 */
export const INGEST_COMMANDS: readonly IngestCommand[] = [...secCommands, ...esefCommands];
