/**
 * Reads xBRL-JSON reports (files, folders, zips) through the ESEF reader and writes nothing: how
 * fast the reader goes and what it keeps, apart from any database.
 *
 *   node dist/tools/read-esef.js PATH... [--concepts ifrs-full:Revenue,…]
 *
 * Prints one JSON object: reports, facts read and kept, skips by reason, bytes read, seconds, MB/s.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_INGEST_LIMITS } from '../config.js';
import { type EsefSkips, noSkips } from '../ingest/sources/esef/esef-report.js';
import { readJsonInputs } from '../ingest/sources/esef/json-inputs.js';
import { readEsefReport } from '../ingest/sources/esef/read-report.js';

const CONCEPTS = [
  'ifrs-full:Revenue',
  'ifrs-full:RevenueFromContractsWithCustomers',
  'ifrs-full:ProfitLossAttributableToOwnersOfParent',
  'ifrs-full:ProfitLoss',
];

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { concepts: { type: 'string' } } });
  if (positionals.length === 0) throw new Error('usage: node dist/tools/read-esef.js PATH... [--concepts LIST]');
  const concepts = values.concepts?.split(',').map((c) => c.trim()) ?? CONCEPTS;
  let bytes = 0;
  async function* counted(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  const started = process.hrtime.bigint();
  const totals = { reports: 0, with_lei: 0, facts_read: 0, facts_kept: 0 };
  const skipped: EsefSkips = noSkips();
  const reports = readJsonInputs(positionals, DEFAULT_INGEST_LIMITS, 'xBRL-JSON reports', (chunks, source, name) =>
    readEsefReport(counted(chunks), source, name, concepts),
  );
  for await (const r of reports) {
    totals.reports++;
    if (r.lei !== null) totals.with_lei++;
    totals.facts_read += r.factsRead;
    totals.facts_kept += r.facts.length;
    for (const [reason, n] of Object.entries(r.skipped)) skipped[reason as keyof EsefSkips] += n;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const out = {
    ...totals,
    skipped,
    bytes,
    seconds: Number(seconds.toFixed(2)),
    mb_per_s: Number((bytes / 1e6 / seconds).toFixed(1)),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`read-esef: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
