import { describe, expect, it } from 'vitest';
import { checkSecUserAgent, sec, secSettings } from './sec.js';

describe('the SEC source', () => {
  it("reads its base and User-Agent from the environment, default SEC's own hosts and none", () => {
    expect(secSettings({})).toEqual({ baseUrl: undefined, userAgent: undefined });
    expect(
      secSettings({
        CORPDATA_SEC_BASE_URL: 'http://127.0.0.1:8999/',
        CORPDATA_SEC_USER_AGENT: ' Example Corp admin@example.com ',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:8999', userAgent: 'Example Corp admin@example.com' });
  });

  it('refuses a base that is not an http(s) URL, naming the variable', () => {
    expect(() => sec.configure({ CORPDATA_SEC_BASE_URL: 'data.sec.gov' })).toThrow(/CORPDATA_SEC_BASE_URL/);
  });

  it('refuses to sync without a User-Agent naming a contact address, or with both --ciks and --all', async () => {
    expect(() => checkSecUserAgent(undefined)).toThrow(/needs CORPDATA_SEC_USER_AGENT/);
    expect(() => checkSecUserAgent('Example Corp')).toThrow(/with a contact e-mail address/);
    expect(checkSecUserAgent('Example Corp admin@example.com')).toBe('Example Corp admin@example.com');
    const prepare = sec.configure({ CORPDATA_SEC_USER_AGENT: 'Example Corp admin@example.com' }).sync;
    await expect(prepare?.({ ciks: '320193', all: true })).rejects.toThrow('give either --ciks or --all, not both');
    await expect(prepare?.({ ciks: 'abc' })).rejects.toThrow(/--ciks: "abc" is not a CIK/);
    const job = await prepare?.({ ciks: '320193', dryRun: true });
    expect(job).toMatchObject({ userAgent: 'Example Corp admin@example.com', requestsPerSecond: 10, dryRun: true });
  });
});
