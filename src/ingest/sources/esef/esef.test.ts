import { describe, expect, it } from 'vitest';
import { esef, esefSettings } from './esef.js';

describe('the ESEF source', () => {
  it('reads its base and User-Agent from the environment, default filings.xbrl.org and a name of the product', () => {
    expect(esefSettings({})).toEqual({ baseUrl: undefined, userAgent: 'corpdata sync (self-hosted corporate data API)' });
    expect(
      esefSettings({ CORPDATA_ESEF_BASE_URL: 'https://mirror.example/esef/', CORPDATA_ESEF_USER_AGENT: ' Example Corp sync ' }),
    ).toEqual({ baseUrl: 'https://mirror.example/esef', userAgent: 'Example Corp sync' });
  });

  it('refuses a base that is not an http(s) URL, naming the variable, and a malformed --country or --since', async () => {
    expect(() => esef.configure({ CORPDATA_ESEF_BASE_URL: 'filings.xbrl.org' })).toThrow(/CORPDATA_ESEF_BASE_URL/);
    const prepare = esef.configure({}).sync;
    await expect(prepare?.({ country: 'XX' })).rejects.toThrow(/--country: "XX"/);
    await expect(prepare?.({ since: '2024-02-30' })).rejects.toThrow(/--since/);
    const job = await prepare?.({ country: 'es,GB', refetch: true });
    expect(job).toMatchObject({ requestsPerSecond: 5, dryRun: false });
  });
});
