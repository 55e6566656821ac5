import { isIPv6 } from 'node:net';

/**
 * The counter key of a client address: IPv4 as it is, IPv6 by its /64 (the block one subscriber
 * is usually given, so rotating addresses inside it gains nothing). Never shaped like a UUID.
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return `ip:${ip}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return `ip:${mapped[1]}`;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `ip6:${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
