import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress, UNREADABLE_ADDRESS_KEY } from './address-key.js';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const port = fc.integer({ min: 0, max: 65535 });
const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
/** Eight groups, written out or with one run of them compressed to `::`, in either case. */
const ipv6 = fc
  .tuple(fc.array(group, { minLength: 8, maxLength: 8 }), fc.nat({ max: 8 }), fc.nat({ max: 8 }), fc.boolean())
  .map(([groups, a, b, upper]) => {
    const [from, to] = a <= b ? [a, b] : [b, a];
    const text = to - from < 2 ? groups.join(':') : `${groups.slice(0, from).join(':')}::${groups.slice(to).join(':')}`;
    return upper ? text.toUpperCase() : text;
  });

describe('addressKey', () => {
  it('keys IPv4 (also IPv4-mapped IPv6) by address and IPv6 by its /64, however it is written', () => {
    expect(addressKey('192.0.2.7')).toBe('ip:192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('ip:192.0.2.7');
    expect(addressKey('2001:db8::1')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('ip6:0:0:0:0::/64');
    expect(addressKey('fe80::1:2:3:4')).toBe('ip6:fe80:0:0:0::/64');
  });

  it('drops the port a proxy may write into X-Forwarded-For, and the brackets of IPv6', () => {
    expect(addressKey('10.7.7.7:1000')).toBe('ip:10.7.7.7');
    expect(addressKey('[2001:db8::1]:1000')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('[2001:db8::1]')).toBe('ip6:2001:db8:0:0::/64');
    expect(addressKey('[::ffff:192.0.2.7]:443')).toBe('ip:192.0.2.7');
    expect(addressKey(' 10.7.7.7 ')).toBe('ip:10.7.7.7');
    expect(addressKey('fe80::1%eth0')).toBe('ip6:fe80:0:0:0::/64');
  });

  it('gives every value that is no address one shared key', () => {
    for (const junk of ['', 'unknown', 'x1', '10.7.7.7:port', '10.7.7.7:1000:1', '[10.7.7.7]:80', '[2001:db8::1', '300.1.1.1']) {
      expect(addressKey(junk), junk).toBe(UNREADABLE_ADDRESS_KEY);
      expect(clientAddress(junk), junk).toBeUndefined();
    }
  });

  it('keys an IPv4 address with any port as the bare address (property)', () => {
    fc.assert(
      fc.property(ipv4, port, (ip, p) => {
        expect(clientAddress(`${ip}:${p}`)).toBe(ip);
        expect(addressKey(`${ip}:${p}`)).toBe(`ip:${ip}`);
      }),
    );
  });

  it('keys a bracketed IPv6 address, with or without a port, as the plain one (property)', () => {
    fc.assert(
      fc.property(ipv6, port, (ip, p) => {
        const plain = addressKey(ip);
        expect(plain).toMatch(/^ip6?:/);
        expect(addressKey(`[${ip}]:${p}`)).toBe(plain);
        expect(addressKey(`[${ip}]`)).toBe(plain);
        expect(addressKey(ip.toLowerCase())).toBe(plain);
      }),
    );
  });

  it('gives every address of one /64 the same key (property)', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, b) => {
        const other = [...a.slice(0, 4), ...b];
        expect(addressKey(other.join(':'))).toBe(addressKey(a.join(':')));
        expect(addressKey(a.join(':'))).toBe(`ip6:${a.slice(0, 4).join(':')}::/64`);
      }),
    );
  });

  it('never throws, and never gives a key a UUID could be mistaken for (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          ipv4,
          ipv6,
          fc.tuple(ipv6, port).map(([ip, p]) => `[${ip}]:${p}`),
        ),
        (raw) => {
          expect(addressKey(raw)).toMatch(/^ip6?:/);
          expect(addressKey(raw)).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
        },
      ),
    );
  });
});
