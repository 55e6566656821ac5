import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { TEST_TOKEN } from '../auth/test-token.js';
import type { Config } from '../config.js';
import type { Dataset } from '../datasets/dataset.js';

/** Registers OpenAPI generation; must run before the routes are added. */
export async function registerOpenApi(app: FastifyInstance, config: Config, datasets: readonly Dataset[]): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Corporate Data API: Revenues and Company Lookup',
        version: '1.0.0',
        description:
          'Revenue figures of listed companies standardized to USD, each traceable to its source document, and company lookup. ' +
          `Every call is billed in credits. Beta. Test mode: the fixed token ${TEST_TOKEN} returns free, deterministic mock data, ` +
          'each answer marked X-Test-Mode: true; the tickers MOCK204, MOCK402, MOCK403 and MOCK404 make it answer those statuses. ' +
          'Errors are plain text, or RFC 9457 problem details (application/problem+json) when the request accepts them.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      tags: [
        ...new Map(datasets.map((d) => [d.route.tag, { name: d.route.tag, description: d.route.tagDescription }])).values(),
        ...(datasets.some((d) => d.statementItem === true)
          ? [{ name: 'fundamentals', description: 'Every statement item of a company-period in one call' }]
          : []),
        { name: 'companies', description: 'Company identification' },
        { name: 'account', description: 'The calling key’s account' },
        { name: 'events', description: 'Changes to watch: figures published or restated, filings ingested' },
        { name: 'status', description: 'How fresh the data is, per source' },
      ],
    },
  });
}
