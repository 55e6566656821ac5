import { SearchIndex } from '../search.js';
import { formatScore, readJudgements, relevanceCatalog, score } from './relevance.js';

/** `node dist/catalog/search/relevance-cli.js [--misses]`: how well search ranks the judged queries. */
const index = new SearchIndex(relevanceCatalog());
process.stdout.write(
  formatScore(
    score((q) => index.search(q), readJudgements()),
    process.argv.includes('--misses'),
  ),
);
