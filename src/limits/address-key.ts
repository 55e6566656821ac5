import { isIPv4, isIPv6 } from 'node:net';

/** The key every client address that cannot be read as one shares: a malformed value is one client. */
export const UNREADABLE_ADDRESS_KEY = 'ip:unreadable';

/**
 * The address of a client address as a proxy may write it in `X-Forwarded-For`, without its port:
 * `192.0.2.7:1000` is `192.0.2.7`, `[2001:db8::1]:1000` and `[2001:db8::1]` are `2001:db8::1`,
 * an IPv6 zone (`%eth0`) is dropped; undefined when the value is no address at all.
 */
export function clientAddress(raw: string): string | undefined {
  const value = raw.trim();
  const bracketed = /^\[([^\]]*)\](?::[0-9]{1,5})?$/.exec(value);
  if (bracketed !== null) {
    const inner = (bracketed[1] ?? '').replace(/%.*$/, '');
    return isIPv6(inner) ? inner : undefined;
  }
  if (isIPv4(value)) return value;
  const withPort = /^([0-9.]+):[0-9]{1,5}$/.exec(value);
  if (withPort?.[1] !== undefined) return isIPv4(withPort[1]) ? withPort[1] : undefined;
  const unzoned = value.replace(/%.*$/, '');
  return isIPv6(unzoned) ? unzoned : undefined;
}

/**
 * The counter key of a client address: IPv4 as it is, IPv6 by its /64 (the block one subscriber
 * is usually given, so rotating addresses inside it gains nothing), either without a port, so that
 * `X-Forwarded-For: 192.0.2.7:1000` and `:1001` count as the one client they are. A value that is
 * no address shares one key with every other such value. Never shaped like a UUID.
 */
export function addressKey(ip: string): string {
  const address = clientAddress(ip);
  if (address === undefined) return UNREADABLE_ADDRESS_KEY;
  if (!isIPv6(address)) return `ip:${address}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return `ip:${mapped[1]}`;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `ip6:${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
