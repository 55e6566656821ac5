import { createHash } from 'node:crypto';

/** The namespace of every demo id: ids stay stable from one regeneration to the next. */
const NAMESPACE = 'b6f1c3c2-5f0e-4d6e-9a57-2f4c1d9e8a10';

/** An RFC 4122 version-5 (SHA-1, name-based) UUID of `name` in the demo namespace. */
export function nameUuid(name: string): string {
  const ns = Buffer.from(NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
