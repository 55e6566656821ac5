import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger, bound to its id, made the first time the request logs something. Most
 * requests log only their access line, which names its request itself (see app.ts); making a bound
 * child for every request was a few percent of a billed call. A class, so that a request costs one
 * small object and no closures.
 */
class RequestLogger implements FastifyBaseLogger {
  #bound: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  #logger(): FastifyBaseLogger {
    this.#bound ??= this.parent.child(this.bindings, this.options);
    return this.#bound;
  }

  get level(): string {
    return this.#logger().level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(...args: LogArgs): void {
    this.#logger().fatal(...args);
  }

  error(...args: LogArgs): void {
    this.#logger().error(...args);
  }

  warn(...args: LogArgs): void {
    this.#logger().warn(...args);
  }

  info(...args: LogArgs): void {
    this.#logger().info(...args);
  }

  debug(...args: LogArgs): void {
    this.#logger().debug(...args);
  }

  trace(...args: LogArgs): void {
    this.#logger().trace(...args);
  }

  silent(...args: LogArgs): void {
    this.#logger().silent(...args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: see {@link RequestLogger}. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
