/** Currencies a revenue figure may be reported in (`original_ccy`), in the spec's order. */
export const CURRENCIES = [
  'AED',
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EUR',
  'EGP',
  'HKD',
  'HUF',
  'GBP',
  'IDR',
  'INR',
  'ILS',
  'JPY',
  'KZT',
  'MYR',
  'MXN',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'RON',
  'RUB',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'USD',
  'ZAR',
  'ZAC',
  'KRW',
  'ILA',
  'QAR',
  'PEN',
  'ARS',
  'VND',
  'PKR',
  'ISK',
  'KWD',
  'LKR',
  'KES',
  'BDT',
  'GEL',
  'BGN',
  'MAD',
  'NAD',
  'NGN',
  'HRK',
  'BHD',
  'ZWG',
  'BWP',
  'ZWL',
] as const;

export type Currency = (typeof CURRENCIES)[number];

const CURRENCY_SET: ReadonlySet<string> = new Set(CURRENCIES);

export function isCurrency(value: string): value is Currency {
  return CURRENCY_SET.has(value);
}

/**
 * Sub-unit currencies quoted in hundredths of another: a ZAC figure is normalized with the ZAR
 * rate after dividing by 100, an ILA figure with the ILS rate.
 */
export const SUB_UNITS: Readonly<Record<string, { readonly parent: Currency; readonly divisor: bigint }>> = {
  ZAC: { parent: 'ZAR', divisor: 100n },
  ILA: { parent: 'ILS', divisor: 100n },
};
