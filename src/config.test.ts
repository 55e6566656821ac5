import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('CORPDATA_TRUST_PROXY', () => {
  const trustProxy = (value: string) => loadConfig({ CORPDATA_TRUST_PROXY: value }).trustProxy;

  it('takes a hop count, or addresses and ranges narrow enough to name proxies', () => {
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('off')).toBe(false);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('10.0.0.5, 10.1.0.0/16,fd00::/32, 2001:db8::7')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/32',
      '2001:db8::7',
    ]);
  });

  it('refuses "trust everyone" and anything that is not an address or range', () => {
    for (const value of [
      'true',
      '0',
      '11',
      '0.0.0.0/0',
      '10.0.0.0/7',
      '::/0',
      '2001:db8::/31',
      '10.0.0.0/33',
      'proxy.local',
      '10.0.0.1/8/8',
    ]) {
      expect(() => trustProxy(value), value).toThrow(ConfigError);
      expect(() => trustProxy(value), value).toThrow(/CORPDATA_TRUST_PROXY/);
    }
  });
});
