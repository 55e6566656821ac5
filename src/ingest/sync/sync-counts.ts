/** Adds every count of `more` into `into`, nested objects of counts included (skipped-by-reason maps). */
export function addCounts<T extends object>(into: T, more: T): void {
  const target = into as Record<string, unknown>;
  for (const [key, value] of Object.entries(more)) {
    if (typeof value === 'number') target[key] = ((target[key] as number | undefined) ?? 0) + value;
    else if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      addCounts(target[key] as object, value as object);
    }
  }
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
