import type { FigureSpec } from '../../../ingest/core/figure-spec.js';
import type { Dataset } from '../../dataset.js';
import { figureBundle, figureBundleColumns } from './figure-bundle.js';
import { loadTraceFacts, loadTraceValues } from './figure-facts.js';
import { figurePointId } from './figure-point-id.js';
import { figureProvenanceSchema, provenanceOf } from './figure-provenance.js';
import { type FigureRecord, type MoneyRecord, moneyRecordSchema } from './figure-record.js';
import { figureTracePage } from './figure-trace-page.js';
import { figureLoader } from './load-figures.js';
import { figureMock } from './mock-figures.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

/** The figure spec filings ingests fill for a kit dataset: its concepts, its table, its bundle file and point ids. */
function filedFigureSpec(spec: MoneyFigureSpec, filed: NonNullable<MoneyFigureSpec['filed']>, bundleFile: string): FigureSpec {
  return {
    name: spec.dataset,
    metric: spec.metric,
    noun: filed.noun,
    concepts: filed.concepts,
    ...(filed.guard === undefined ? {} : { guard: filed.guard }),
    ...(filed.companions === undefined ? {} : { companions: filed.companions }),
    ...(spec.period === undefined ? {} : { period: spec.period }),
    ...(spec.perShare === undefined ? {} : { perShare: spec.perShare }),
    table: spec.table,
    bundleFile,
    bundleColumns: figureBundleColumns(spec),
    pointId: (documentId, period) => figurePointId(spec, documentId, period),
  };
}

/** What a money figure dataset says beyond its {@link MoneyFigureSpec}: the declaration's own words. */
export type MoneyFigureDeclaration = Pick<Dataset, 'label' | 'subscription' | 'route' | 'example' | 'openApiExamples'>;

/**
 * A dataset of money figures per company-period from documents, from its declaration: records,
 * loader, mock, trace page and provenance all come from the kit, reading the spec's figure table.
 */
export function moneyFigureDataset<M extends string>(
  spec: MoneyFigureSpec & { metric: M; perShare?: undefined },
  declaration: MoneyFigureDeclaration,
): Dataset<MoneyRecord<M>>;
export function moneyFigureDataset<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
  declaration: MoneyFigureDeclaration,
): Dataset<FigureRecord<M>>;
export function moneyFigureDataset<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
  declaration: MoneyFigureDeclaration,
): Dataset<FigureRecord<M>> {
  const figures =
    spec.filed !== undefined && spec.bundleFile !== undefined ? filedFigureSpec(spec, spec.filed, spec.bundleFile) : undefined;
  return {
    name: spec.dataset,
    ...declaration,
    recordSchema: moneyRecordSchema(spec),
    provenanceSchema: figureProvenanceSchema(spec),
    prices: spec.prices,
    pointsTable: spec.table,
    statementItem: true,
    ...(spec.bundleFile === undefined ? {} : { bundle: figureBundle(spec, spec.bundleFile) }),
    ...(figures === undefined ? {} : { figures }),
    // A row of the kit's bundle file, for the contract test, unless the declaration gives its own.
    ...(declaration.example === undefined && spec.bundleFile !== undefined
      ? {
          example: {
            file: spec.bundleFile,
            documentKind: 'financial' as const,
            row:
              spec.perShare === true
                ? { value: '3.28', unit: 'USD/share' }
                : { value: '1234567000', [spec.bundleCurrencyColumn ?? 'ccy']: 'USD' },
          },
        }
      : {}),
    load: figureLoader(spec),
    mock: figureMock(spec),
    async trace(db, id) {
      const facts = await loadTraceFacts(db, spec.table, id, figures);
      if (facts === undefined) return undefined;
      const values = () => loadTraceValues(db, spec.table, facts.companyId, facts.period, spec.perShare === true);
      return {
        subject: { companyId: facts.companyId, period: facts.period },
        served: facts.document.status === 'processed',
        async page(access, publicUrl) {
          if (access !== 'bought') return figureTracePage(spec, declaration.route.path, facts, { kind: access }, publicUrl);
          return figureTracePage(spec, declaration.route.path, facts, { kind: 'bought', values: await values() }, publicUrl);
        },
        async provenance(access, publicUrl) {
          const shown = access === 'bought' ? (await values()).get(facts.pointId) : undefined;
          return provenanceOf(spec, facts, shown, publicUrl);
        },
      };
    },
  };
}
