import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, type Env, loadConfig, parseBaseUrl, parsePostgresHosts } from './config.js';

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

describe('CORPDATA_RATE_LIMIT', () => {
  const rateLimit = (value: string | undefined) => loadConfig({ CORPDATA_RATE_LIMIT: value }).rateLimit;

  it('takes N/s, N/min or off, and is on by default', () => {
    expect(rateLimit(undefined)).toEqual({ requests: 100, windowSeconds: 1 });
    expect(rateLimit('')).toEqual({ requests: 100, windowSeconds: 1 });
    expect(rateLimit('20/s')).toEqual({ requests: 20, windowSeconds: 1 });
    expect(rateLimit('600/min')).toEqual({ requests: 600, windowSeconds: 60 });
    expect(rateLimit('off')).toBeNull();
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['0/s', '10', '10/h', '-1/s', '1.5/s', 'on', '10 /s', '10/S']) {
      expect(() => rateLimit(value), value).toThrow(/CORPDATA_RATE_LIMIT/);
    }
  });
});

describe('CORPDATA_PUBLIC_URL', () => {
  it('defaults to http://localhost:{PORT}', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '9311' })).toMatchObject({ publicUrl: 'http://localhost:9311', publicUrlFromPort: true });
    expect(loadConfig({ PORT: '9311', CORPDATA_PUBLIC_URL: 'https://data.example.com/' })).toMatchObject({
      publicUrl: 'https://data.example.com',
      publicUrlFromPort: false,
    });
  });
});

describe('CORPDATA_INGEST_MAX_…', () => {
  it('defaults to limits far above SEC files, and takes whole byte counts', () => {
    expect(loadConfig({}).ingest).toEqual({
      maxJsonBytes: 256 * 1024 * 1024,
      maxLineBytes: 1024 * 1024,
      maxFsdsEntryBytes: 4 * 1024 * 1024 * 1024,
    });
    expect(
      loadConfig({
        CORPDATA_INGEST_MAX_JSON_BYTES: '2147483648',
        CORPDATA_INGEST_MAX_LINE_BYTES: '4096',
        CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES: '10737418240',
      }).ingest,
    ).toEqual({ maxJsonBytes: 2 ** 31, maxLineBytes: 4096, maxFsdsEntryBytes: 10 * 2 ** 30 });
  });

  it('refuses a size that is not a whole number or out of range, naming the variable', () => {
    expect(() => loadConfig({ CORPDATA_INGEST_MAX_JSON_BYTES: '256MiB' })).toThrow(/CORPDATA_INGEST_MAX_JSON_BYTES/);
    expect(() => loadConfig({ CORPDATA_INGEST_MAX_JSON_BYTES: '10' })).toThrow(/CORPDATA_INGEST_MAX_JSON_BYTES/);
    // A line is one string: V8's end of strings (512 MiB) is out of reach.
    expect(() => loadConfig({ CORPDATA_INGEST_MAX_LINE_BYTES: String(512 * 1024 * 1024) })).toThrow(
      /CORPDATA_INGEST_MAX_LINE_BYTES/,
    );
  });
});

describe('sync settings', () => {
  it('default to 1 s backoff, batches of 100, 15 min a file and 6 h a run', () => {
    expect(loadConfig({}).sync).toEqual({ retryBaseMs: 1000, batchSize: 100, fileBudgetMs: 900_000, runBudgetMs: 21_600_000 });
    expect(
      loadConfig({
        CORPDATA_SYNC_RETRY_BASE_MS: '50',
        CORPDATA_SYNC_BATCH: '1',
        CORPDATA_SYNC_FILE_BUDGET_MS: '3000',
        CORPDATA_SYNC_RUN_BUDGET_MS: '60000',
      }).sync,
    ).toEqual({
      retryBaseMs: 50,
      batchSize: 1,
      fileBudgetMs: 3000,
      runBudgetMs: 60_000,
    });
  });

  it('refuses a batch of none, naming the variable', () => {
    expect(() => loadConfig({ CORPDATA_SYNC_BATCH: '0' })).toThrow(/CORPDATA_SYNC_BATCH/);
    // A budget under a second would give every file up before its first answer.
    expect(() => loadConfig({ CORPDATA_SYNC_FILE_BUDGET_MS: '999' })).toThrow(/CORPDATA_SYNC_FILE_BUDGET_MS/);
    expect(() => loadConfig({ CORPDATA_SYNC_RUN_BUDGET_MS: '5s' })).toThrow(/CORPDATA_SYNC_RUN_BUDGET_MS/);
  });
});

describe('CORPDATA_KEYS_PER_ACCOUNT', () => {
  const cap = (value: string | undefined) => loadConfig({ CORPDATA_KEYS_PER_ACCOUNT: value }).keysPerAccount;

  it('is 20 unless set to a whole number from 1 to 10000', () => {
    expect(cap(undefined)).toBe(20);
    expect(cap('')).toBe(20);
    expect(cap('1')).toBe(1);
    expect(cap('10000')).toBe(10_000);
    for (const value of ['0', '10001', '-1', '2.5', 'many', 'off']) {
      expect(() => cap(value), value).toThrow(/CORPDATA_KEYS_PER_ACCOUNT/);
    }
  });
});

describe('sections', () => {
  it('are read from the same environment and kept under their names', () => {
    const section = (name: string) => ({ name, configure: (env: Env) => `${name}:${env.CORPDATA_X ?? 'unset'}` });
    const config = loadConfig({ CORPDATA_X: 'x' }, [section('a'), section('b')]);
    expect([...config.sections]).toEqual([
      ['a', 'a:x'],
      ['b', 'b:x'],
    ]);
    expect(loadConfig({}).sections.size).toBe(0);
  });

  it("refuse the config when one refuses its variable, with that section's message", () => {
    const strict = {
      name: 'strict',
      configure: (env: Env) => parseBaseUrl('CORPDATA_STRICT_BASE_URL', env.CORPDATA_STRICT_BASE_URL),
    };
    expect(() => loadConfig({ CORPDATA_STRICT_BASE_URL: 'example.com' }, [strict])).toThrow(/CORPDATA_STRICT_BASE_URL/);
    expect(loadConfig({ CORPDATA_STRICT_BASE_URL: 'https://example.com/x/' }, [strict]).sections.get('strict')).toBe(
      'https://example.com/x',
    );
  });
});

describe('CORPDATA_DATABASE with several PostgreSQL servers (design §21.1)', () => {
  it('reads the host list libpq writes, each server with its own URL and the rest kept', () => {
    const url =
      'postgresql://corpdata:s%40cret@db1:5432,db2.example.com:5433,[::1]/corpdata?sslmode=disable&target_session_attrs=read-write';
    expect(parsePostgresHosts(url)).toEqual({
      hosts: [
        { host: 'db1', port: 5432 },
        { host: 'db2.example.com', port: 5433 },
        { host: '::1', port: 5432 },
      ],
      targetSessionAttrs: 'read-write',
      urls: [
        'postgresql://corpdata:s%40cret@db1:5432/corpdata?sslmode=disable',
        'postgresql://corpdata:s%40cret@db2.example.com:5433/corpdata?sslmode=disable',
        'postgresql://corpdata:s%40cret@[::1]:5432/corpdata?sslmode=disable',
      ],
    });
    expect(loadConfig({ CORPDATA_DATABASE: url }).database).toEqual({ kind: 'postgres', url });
  });

  it('leaves a URL of one server that asks for nothing to the driver, as before', () => {
    expect(parsePostgresHosts('postgres://u:p@db:5432/corpdata')).toBeNull();
    expect(parsePostgresHosts('postgres://db/corpdata?sslmode=require')).toBeNull();
    expect(parsePostgresHosts('postgres://db/corpdata?target_session_attrs=primary')?.hosts).toEqual([
      { host: 'db', port: 5432 },
    ]);
  });

  it.each([
    ['postgres://a:1,b:2/db', 'needs target_session_attrs=read-write'],
    ['postgres://a:1,b:2/db?target_session_attrs=any', '(got "any")'],
    ['postgres://a/db?target_session_attrs=standby', '(got "standby")'],
    ['postgres://a:1,,b:2/db?target_session_attrs=read-write', 'names no host'],
    ['postgres://a:1,b:0/db?target_session_attrs=read-write', 'port "0" of b'],
    ['postgres://a:1,b:65536/db?target_session_attrs=read-write', 'port "65536" of b'],
    ['postgres://a:1,b:x/db?target_session_attrs=read-write', 'port "x" of b'],
    ['postgres://a:1,::1:2/db?target_session_attrs=read-write', 'IPv6 address in brackets'],
    ['postgres://a:1,b c:2/db?target_session_attrs=read-write', '"b c" is not a host name'],
  ])('refuses %s, saying why', (url, why) => {
    expect(() => loadConfig({ CORPDATA_DATABASE: url })).toThrow(ConfigError);
    expect(() => loadConfig({ CORPDATA_DATABASE: url })).toThrow(why);
  });

  const hostName = fc.oneof(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}(\.[a-z0-9-]{1,10}){0,3}$/),
    fc.ipV4(),
    fc.ipV6().map((a) => `[${a}]`),
  );
  const host = fc.record({ host: hostName, port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }) });

  it('round-trips any host list, user, database and other parameters', () => {
    fc.assert(
      fc.property(
        fc.array(host, { minLength: 1, maxLength: 5 }),
        fc.option(fc.stringMatching(/^[a-z]{1,8}(:[A-Za-z0-9%]{1,12})?@$/), { nil: '' }),
        fc.stringMatching(/^[a-z_]{1,12}$/),
        fc.constantFrom('', 'sslmode=disable&', 'application_name=x&connect_timeout=3&'),
        fc.constantFrom('read-write', 'primary'),
        fc.boolean(),
        (hosts, userinfo, database, extra, attrs, last) => {
          const list = hosts.map((h) => (h.port === undefined ? h.host : `${h.host}:${h.port}`)).join(',');
          const query = last ? `${extra}target_session_attrs=${attrs}` : `target_session_attrs=${attrs}&${extra}`;
          const parsed = parsePostgresHosts(`postgresql://${userinfo}${list}/${database}?${query}`);
          expect(parsed?.targetSessionAttrs).toBe(attrs);
          expect(parsed?.hosts).toEqual(hosts.map((h) => ({ host: h.host.replace(/^\[|\]$/g, ''), port: h.port ?? 5432 })));
          const rest = extra.replace(/&$/, '');
          parsed?.urls.forEach((url, i) => {
            const h = hosts[i];
            expect(url).toBe(`postgresql://${userinfo}${h?.host}:${h?.port ?? 5432}/${database}${rest === '' ? '' : `?${rest}`}`);
            // Each is a URL of one server that node-postgres reads as it is.
            expect(parsePostgresHosts(url)).toBeNull();
          });
        },
      ),
    );
  });

  it('either reads a postgres:// URL or refuses it with a ConfigError, never another error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 30 }), (authority, rest) => {
        try {
          parsePostgresHosts(`postgres://${authority}/${rest}?target_session_attrs=read-write`);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
    );
  });
});
