import type { Source } from '../source.js';

/**
 * The import bundle as a source (design §5, §15): documents a bundle brings are stored under
 * `bundle` and their own document_id, unless the bundle says another source brought them (an
 * export keeps that). It is read by `bin/corpdata import`, which every dataset's bundle file goes
 * through (the datasets are handed to it), so it has no `ingest` command of its own and no sync.
 */
export const bundle: Source = {
  name: 'bundle',
  ingest: [],
  configure: () => ({}),
};
