import { createHash } from 'node:crypto';

/**
 * A name-based UUID (version 5 layout) of a key: the same key gives the same id on every machine
 * and every import, so a re-import or an export round trip keeps a data point's links.
 */
export function stableId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
