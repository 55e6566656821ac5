import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import { GET_ONLY } from '../method-discipline.js';
import { finishDocument } from '../openapi-document.js';

/**
 * Serves the OpenAPI 3.1 document generated from the route schemas. Its server is read per request:
 * without CORPDATA_PUBLIC_URL it is known only once the app listens.
 */
export const openapiRoute =
  (config: Config): FastifyPluginAsync =>
  async (app) => {
    let served: { publicUrl: string; json: string } | undefined;
    app.get('/api/v1/openapi.json', { ...GET_ONLY, schema: { hide: true } }, async (_request, reply) => {
      const publicUrl = config.publicUrl;
      if (served?.publicUrl !== publicUrl) {
        served = { publicUrl, json: JSON.stringify(finishDocument(app.swagger(), publicUrl, config.rateLimit !== null)) };
      }
      return reply.type('application/json; charset=utf-8').send(served.json);
    });
  };
