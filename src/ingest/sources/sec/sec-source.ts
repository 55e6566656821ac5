import type { FiledFact, Filer, FilingSource } from '../../filings/source.js';
import { filingDocumentId, filingIndexUrl, isAnnualForm } from './rules.js';

/** A filer as SEC's files name it: by CIK. */
export type SecFiler = Filer & { cik: string };

/**
 * SEC filings as a source (design §10, §15): companyfacts and the financial statement data sets
 * read into the same filers. A filing is one document per accession number, whichever of them
 * brought it, linked to its filing index on EDGAR.
 */
export const secSource: FilingSource = {
  name: 'sec',
  isAnnualForm,
  document: (filer: Filer, fact: FiledFact) => ({
    documentId: filingDocumentId(fact.accession),
    title: `${filer.name}: ${fact.form} filed ${fact.filed} (accession ${fact.accession})`,
    sourceUrl: filingIndexUrl(filer.cik ?? '', fact.accession),
    form: fact.form,
    accession: fact.accession,
  }),
};
