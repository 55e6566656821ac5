import { UUID_TEXT } from '../catalog/identifiers.js';

/** A mock data point id: `mock-` and a UUID, or for an intensity two of them joined by "~". */
export const MOCK_TRACE_ID = `mock-${UUID_TEXT}(?:~mock-${UUID_TEXT})?`;
const MOCK_ID = new RegExp(`^${MOCK_TRACE_ID}$`, 'i');

/** The ids the test token's mock records point to (`/trace/mock-…`): never a real data point. */
export function isMockTraceId(id: string): boolean {
  return MOCK_ID.test(id);
}

/** What a mock data point's trace says, on its page and as JSON. */
export const MOCK_TRACE_SAYS =
  'This data point is mock data, answered to the public test token: it comes from no document and its figures are made up.';

/**
 * A mock data point's provenance as JSON: for `/trace/{id}` asked with `Accept: application/json`
 * and for `/api/v1/trace/{id}`, so a test-mode client can follow every link it is given.
 */
export function mockProvenance(id: string, publicUrl: string): Record<string, unknown> {
  const lower = id.toLowerCase();
  return { data_point_id: lower, mock: true, detail: MOCK_TRACE_SAYS, traceability_source_url: `${publicUrl}/trace/${lower}` };
}
