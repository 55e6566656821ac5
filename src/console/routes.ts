import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { signingSecret } from '../db/migrate.js';
import { installPageErrors } from '../http/respond.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { ConsoleAuth } from './console-auth.js';
import type { ConsoleDeps } from './console-deps.js';
import { Credentials } from './credentials.js';
import { explorerRoutes } from './explorer-routes.js';
import { registerFormParser } from './form-body.js';
import { keyRoutes } from './key-routes.js';
import { passwordRoutes } from './password-routes.js';
import { signInRoutes } from './sign-in-routes.js';
import { SignInThrottle } from './throttle.js';
import { usageRoutes } from './usage-routes.js';

/**
 * `/account/*`: the account console (sign-in, the data explorer, API keys, balance and usage, password), as
 * server-rendered pages. Sessions live in the database, so any instance serves any visitor.
 * `limiter` is the API's own (absent when rate limiting is off): the company search draws from
 * the account's bucket.
 */
export function consoleRoutes(ctx: AppContext, limiter?: RateLimiter): FastifyPluginAsync {
  return async (app) => {
    registerFormParser(app, ctx.config.formBodyLimitBytes);
    installPageErrors(app);
    const deps: ConsoleDeps = {
      ctx,
      auth: new ConsoleAuth(ctx),
      credentials: new Credentials(ctx.db.kysely),
      throttle: new SignInThrottle(ctx.clock),
      secret: await signingSecret(ctx.db.kysely, ctx.config.secret),
      limiter,
    };
    signInRoutes(app, deps);
    explorerRoutes(app, deps);
    keyRoutes(app, deps);
    usageRoutes(app, deps);
    passwordRoutes(app, deps);
  };
}
