import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Fastify's `childLoggerFactory`: a request's logger, bound to its id, made the first time the
 * request logs something. Most requests log only their access line, which names its request itself
 * (see app.ts); making a bound child for every request was a few percent of a billed call.
 */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  const bound = () => {
    child ??= logger.child(bindings, options);
    return child;
  };
  const at =
    (level: Level) =>
    (...args: unknown[]): void =>
      (bound()[level] as (...a: unknown[]) => void)(...args);
  return {
    get level() {
      return bound().level;
    },
    set level(level: string) {
      bound().level = level;
    },
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: at('silent'),
    child: (more, moreOptions) => bound().child(more, moreOptions),
  };
}
