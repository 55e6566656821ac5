import { bundle } from './sources/bundle/bundle.js';
import { esef } from './sources/esef/esef.js';
import { sec } from './sources/sec/sec.js';
import type { Source } from './sources/source.js';

/**
 * Every source, one line each (design §15). Only the composition roots import this list; the CLI
 * builds its `ingest` and `sync` commands from it, and `sync` hands it to the config, which has
 * each source read its own variables: a malformed one is refused when a sync starts, not by every
 * command. `docs/new-source.md` walks through adding a line.
 */
export const SOURCES: readonly Source[] = [sec, esef, bundle];
