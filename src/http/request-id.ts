import { randomFillSync } from 'node:crypto';

const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of the 16 bytes' two hex digits go in `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`. */
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/** Random bytes drawn at once, for this many ids (as `crypto.randomUUID` buffers its entropy). */
const IDS_PER_DRAW = 128;

/**
 * Fastify's `genReqId`: a random (version 4) UUID per request, as `crypto.randomUUID` makes, but
 * written into a buffer and read out as one flat string. `randomUUID` joins twenty pieces; every
 * later reader of the id (the header check of `writeHead`, the access line's JSON) then had to flatten
 * it first, which cost about half a microsecond a request (docs/search-and-hot-path.md). One
 * generator per app: it holds its own buffers.
 */
export function requestIdGenerator(): () => string {
  const random = Buffer.alloc(16 * IDS_PER_DRAW);
  let offset = random.length;
  const text = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');
  return () => {
    if (offset === random.length) {
      randomFillSync(random);
      offset = 0;
    }
    for (let i = 0; i < 16; i++) {
      let byte = random[offset + i] ?? 0;
      // RFC 9562 §5.4: version 4 in the high nibble of byte 6, variant 10 in the high bits of byte 8.
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      const at = DIGIT_AT[i] ?? 0;
      text[at] = HEX[byte >> 4] ?? 0;
      text[at + 1] = HEX[byte & 0x0f] ?? 0;
    }
    offset += 16;
    return text.toString('latin1');
  };
}
