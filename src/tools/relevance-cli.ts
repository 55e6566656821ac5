import { ReferenceScan } from '../catalog/search/reference-scan.js';
import { SearchIndex } from '../catalog/search/search-index.js';
import { catalogAmongDistractors, formatScore, readJudgements, relevanceCatalog, score } from './relevance.js';

/**
 * `node dist/tools/relevance-cli.js [--scan] [--misses] [--distractors N]`: how well search
 * ranks the judged queries; `--scan` scores the reference scan instead of the index, to compare the
 * two; `--distractors N` adds N generated companies, a tenth of them namesakes of real ones.
 */
const at = process.argv.indexOf('--distractors');
const distractors = at < 0 ? 0 : Number(process.argv[at + 1] ?? 100_000);
const entries = distractors > 0 ? catalogAmongDistractors(distractors) : relevanceCatalog();
const index = process.argv.includes('--scan') ? new ReferenceScan(entries) : new SearchIndex(entries);
process.stdout.write(
  formatScore(
    score((q) => index.search(q), readJudgements()),
    process.argv.includes('--misses'),
  ),
);
