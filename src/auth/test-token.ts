/**
 * The fixed, publicly documented test token (design §1.11). It is a JWT in form only: it is
 * recognised by exact comparison, never verified with the service's secret, so knowing it grants
 * nothing but mock data.
 */
export const TEST_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZXN0LW1vZGUiLCJqdGkiOiJ0ZXN0LW1vZGUiLCJtb2NrIjp0cnVlfQ.Y29ycGRhdGEtdGVzdC1tb2RlLW1vY2stZGF0YS1vbmx5';
