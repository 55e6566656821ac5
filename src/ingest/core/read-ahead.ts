/**
 * What `items` yields, in order, each next item asked for as soon as one is handed out: its
 * reading (a filer's file parsed) goes on while the consumer waits on something else (the
 * database). At most one item is held ahead. A failure of that read is met where the next item is
 * awaited, after the consumer is done with the one it has, as if it had been read only then.
 */
export async function* readAhead<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  try {
    let next = iterator.next();
    for (;;) {
      const step = await next;
      if (step.done === true) return;
      next = iterator.next();
      // Met (and thrown) when awaited above; unawaited meanwhile, it must not count as unhandled.
      next.catch(() => undefined);
      yield step.value;
    }
  } finally {
    // Lets the source go (a zip closed) once the read ahead, if any, has settled.
    await iterator.return?.();
  }
}
