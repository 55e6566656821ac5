import { ReferenceScan } from './reference-scan.js';
import { formatScore, readJudgements, relevanceCatalog, score } from './relevance.js';
import { SearchIndex } from './search-index.js';

/**
 * `node dist/catalog/search/relevance-cli.js [--scan] [--misses]`: how well search ranks the judged
 * queries; `--scan` scores the reference scan instead of the index, to compare the two.
 */
const entries = relevanceCatalog();
const index = process.argv.includes('--scan') ? new ReferenceScan(entries) : new SearchIndex(entries);
process.stdout.write(
  formatScore(
    score((q) => index.search(q), readJudgements()),
    process.argv.includes('--misses'),
  ),
);
