import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { DocumentStatus } from '../../db/schema.js';

/** A source document's status in a provenance answer (only `processed` documents' figures are served). */
export const DocumentStatusSchema = Type.Union([Type.Literal('processed'), Type.Literal('pending'), Type.Literal('failed')]);

/** A document's publication date in a provenance answer: null when its source gives none (never ''). */
export const PublishedOnSchema = Type.Union([Type.String({ format: 'date' }), Type.Null()], {
  description: 'When the document was published; null when its source gives no date (an ESEF report no index lists).',
});

/**
 * The source document of a figure as every provenance answer shows it: id, title, where it is
 * published (`sourceUrl` says what the document is), its publication date and status, then what
 * the dataset adds (a report's page). `publishedOn` is {@link PublishedOnSchema} unless the dataset says otherwise.
 */
export function documentProvenanceSchema<P extends TProperties = Record<never, TSchema>>(options: {
  sourceUrl: string;
  publishedOn?: TSchema;
  more?: P;
}): TObject {
  return Type.Object(
    {
      document_id: Type.String({ format: 'uuid' }),
      title: Type.String(),
      source_url: Type.String({ description: options.sourceUrl }),
      published_on: options.publishedOn ?? PublishedOnSchema,
      status: DocumentStatusSchema,
      ...(options.more ?? {}),
    },
    { additionalProperties: false },
  );
}

/** A document's facts as the kit's trace facts hold them. */
export interface DocumentFacts {
  documentId: string;
  title: string;
  sourceUrl: string;
  /** '' when the source gives no date. */
  publishedOn: string;
  status: DocumentStatus;
}

/** The members of {@link documentProvenanceSchema} from a document's facts; an unknown date ('' as stored) is null. */
export function documentProvenance(d: DocumentFacts): {
  document_id: string;
  title: string;
  source_url: string;
  published_on: string | null;
  status: DocumentStatus;
} {
  return {
    document_id: d.documentId,
    title: d.title,
    source_url: d.sourceUrl,
    published_on: d.publishedOn === '' ? null : d.publishedOn,
    status: d.status,
  };
}
