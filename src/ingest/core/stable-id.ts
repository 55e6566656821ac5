import { createHash } from 'node:crypto';

/**
 * A name-based UUID (version 5 layout) of a source's key, so the same filing gives the same
 * document id on every machine and every run: `sec-filing:{accession}`, `esef:{fxo_id}`.
 */
export function stableId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
