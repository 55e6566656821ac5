/**
 * The SEC labels a listing only by exchange family: one documented MIC per label. The SEC's
 * "Nasdaq" does not say which tier, so every Nasdaq listing is placed on the Global Select Market.
 */
export const SEC_EXCHANGE_MIC: Readonly<Record<string, string>> = {
  NYSE: 'XNYS',
  Nasdaq: 'XNGS',
  CBOE: 'BATS',
  OTC: 'OTCM',
};
