import type { Catalog } from './catalog.js';

/**
 * Holds the current catalog. After an import it keeps answering from the old one while the new
 * one loads (a large catalog takes a while to read and index), then swaps; a request never waits
 * for a reload unless there is no catalog yet. A reload that was already running when the data
 * moved again is followed by another.
 */
export class CatalogHolder {
  #current: Catalog | undefined;
  #loading: Promise<Catalog> | undefined;
  #stale = false;

  constructor(private readonly load: () => Promise<Catalog>) {}

  get(): Promise<Catalog> {
    if (this.#current !== undefined) {
      if (this.#stale) void this.#reload().catch(() => undefined);
      return Promise.resolve(this.#current);
    }
    return this.#reload();
  }

  /** Marks the catalog out of date and starts loading its successor at once. */
  invalidate(): void {
    this.#stale = true;
    if (this.#current !== undefined && this.#loading === undefined) void this.#reload().catch(() => undefined);
  }

  #reload(): Promise<Catalog> {
    if (this.#loading !== undefined) return this.#loading;
    this.#stale = false;
    const loading = this.load().then(
      (catalog) => {
        this.#current = catalog;
        this.#loading = undefined;
        if (this.#stale) void this.#reload().catch(() => undefined);
        return catalog;
      },
      (error: unknown) => {
        this.#stale = true;
        this.#loading = undefined;
        throw error;
      },
    );
    this.#loading = loading;
    return loading;
  }
}
