import { type Static, Type } from '@sinclair/typebox';
import { ISIN_PATTERN, LEI_PATTERN, TICKER_MAX_LENGTH } from '../../catalog/identifiers.js';
import { micCodeSchema, singleCallPeriod } from '../schemas.js';

/** An ISIN parameter or field, as every call that takes one checks it. */
export const isinSchema = () =>
  Type.String({
    minLength: 12,
    maxLength: 12,
    pattern: ISIN_PATTERN,
    description: `exactly 12 characters matching ${ISIN_PATTERN}.`,
  });

/** An LEI parameter or field, as every call that takes one checks it. */
export const leiSchema = () =>
  Type.String({
    minLength: 20,
    maxLength: 20,
    pattern: LEI_PATTERN,
    description: `exactly 20 characters matching ${LEI_PATTERN}.`,
  });

/** The identifier parameters of every dataset's calls (history and batch take them as they are). */
export const identifierProperties = {
  ticker: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TICKER_MAX_LENGTH,
      description: `a stock ticker of 1 to ${TICKER_MAX_LENGTH} characters.`,
    }),
  ),
  mic_code: Type.Optional(micCodeSchema('one of the Market Identifier Codes listed in the API reference.')),
  company_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'a UUID. Takes precedence over every other identifier.' }),
  ),
  isin: Type.Optional(isinSchema()),
  lei: Type.Optional(leiSchema()),
};

/**
 * The query of a dataset's endpoint: identifiers and `reporting_period` as `/revenues` has them
 * (design §1), its rule naming the dataset's history call for earlier years.
 */
export const datasetQuery = (path: string) =>
  Type.Object(
    { ...identifierProperties, reporting_period: singleCallPeriod(`${path}/history`) },
    { additionalProperties: false },
  );
/** The query of every dataset's endpoint (one shape; only the rule's wording names the dataset). */
export type DatasetQuery = Static<ReturnType<typeof datasetQuery>>;

/** The identifier parameters alone, as the periods endpoints take them. */
export const IdentifierQuery = Type.Object(identifierProperties, { additionalProperties: false });
export type IdentifierQuery = Static<typeof IdentifierQuery>;
