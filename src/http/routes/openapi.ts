import type { FastifyPluginAsync } from 'fastify';

/** Serves the OpenAPI 3.1 document generated from the route schemas. */
export const openapiRoute: FastifyPluginAsync = async (app) => {
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger()));
  });
};
