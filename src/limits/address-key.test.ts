import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.js';

describe('addressKey', () => {
  it('keys IPv4 (also IPv4-mapped IPv6) by address and IPv6 by its /64, however it is written', () => {
    expect(addressKey('192.0.2.7')).toBe('ip:192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('ip:192.0.2.7');
    expect(addressKey('2001:db8::1')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('ip6:0:0:0:0::/64');
    expect(addressKey('fe80::1:2:3:4')).toBe('ip6:fe80:0:0:0::/64');
  });

  it('gives every address of one /64 the same key (property)', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, b) => {
        const other = [...a.slice(0, 4), ...b];
        expect(addressKey(other.join(':'))).toBe(addressKey(a.join(':')));
        expect(addressKey(a.join(':'))).toBe(`ip6:${a.slice(0, 4).join(':')}::/64`);
      }),
    );
  });
});
