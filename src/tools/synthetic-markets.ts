import type { Currency } from '../money/currencies.js';

/**
 * Where a synthetic company is at home: the currency it reports in, its country, the market of its
 * primary listing, the ISIN country prefix, and roughly how many USD one unit was worth in 2023.
 * One profile per spec currency, so a bundle of at least as many companies uses every currency.
 * Approximate, plausible figures: the data is synthetic, only its shape has to be real.
 */
export interface MarketProfile {
  readonly currency: Currency;
  readonly country: string;
  readonly mic: string;
  readonly isinPrefix: string;
  /** USD per unit (of the rate currency: ZAR for ZAC, ILS for ILA). */
  readonly usdPerUnit: number;
}

const p = (currency: Currency, country: string, mic: string, isinPrefix: string, usdPerUnit: number): MarketProfile => ({
  currency,
  country,
  mic,
  isinPrefix,
  usdPerUnit,
});

export const PROFILES: readonly MarketProfile[] = [
  p('USD', 'United States', 'XNYS', 'US', 1),
  p('AED', 'United Arab Emirates', 'XDFM', 'AE', 0.2723),
  p('AUD', 'Australia', 'XASX', 'AU', 0.664),
  p('BRL', 'Brazil', 'BVMF', 'BR', 0.2),
  p('CAD', 'Canada', 'XTSE', 'CA', 0.741),
  p('CHF', 'Switzerland', 'XSWX', 'CH', 1.113),
  p('CLP', 'Chile', 'XSGO', 'CL', 0.00119),
  p('CNY', 'China', 'XSHG', 'CN', 0.141),
  p('COP', 'Colombia', 'XBOG', 'CO', 0.000228),
  p('CZK', 'Czech Republic', 'XPRA', 'CZ', 0.045),
  p('DKK', 'Denmark', 'XCSE', 'DK', 0.145),
  p('EUR', 'Germany', 'XETR', 'DE', 1.081),
  p('EGP', 'Egypt', 'XCAI', 'EG', 0.0327),
  p('HKD', 'Hong Kong', 'XHKG', 'HK', 0.1277),
  p('HUF', 'Hungary', 'XBUD', 'HU', 0.00283),
  p('GBP', 'United Kingdom', 'XLON', 'GB', 1.243),
  p('IDR', 'Indonesia', 'XIDX', 'ID', 0.0000656),
  p('INR', 'India', 'XNSE', 'IN', 0.0121),
  p('ILS', 'Israel', 'XTAE', 'IL', 0.271),
  p('JPY', 'Japan', 'XTKS', 'JP', 0.00712),
  p('KZT', 'Kazakhstan', 'XKAZ', 'KZ', 0.00219),
  p('MYR', 'Malaysia', 'XKLS', 'MY', 0.219),
  p('MXN', 'Mexico', 'XMEX', 'MX', 0.0564),
  p('NOK', 'Norway', 'XOSL', 'NO', 0.0947),
  p('NZD', 'New Zealand', 'XNZE', 'NZ', 0.614),
  p('PHP', 'Philippines', 'XPHS', 'PH', 0.018),
  p('PLN', 'Poland', 'XWAR', 'PL', 0.238),
  p('RON', 'Romania', 'XBSE', 'RO', 0.218),
  p('RUB', 'Russia', 'MISX', 'RU', 0.0117),
  p('SAR', 'Saudi Arabia', 'XSAU', 'SA', 0.2667),
  p('SEK', 'Sweden', 'XSTO', 'SE', 0.0943),
  p('SGD', 'Singapore', 'XSES', 'SG', 0.744),
  p('THB', 'Thailand', 'XBKK', 'TH', 0.0287),
  p('TRY', 'Türkiye', 'XXXX', 'TR', 0.0424),
  p('TWD', 'Taiwan', 'XTAI', 'TW', 0.0321),
  p('ZAR', 'South Africa', 'XJSE', 'ZA', 0.0543),
  p('ZAC', 'South Africa', 'XJSE', 'ZA', 0.0543),
  p('KRW', 'Korea, Republic of', 'XKRX', 'KR', 0.000766),
  p('ILA', 'Israel', 'XTAE', 'IL', 0.271),
  p('QAR', 'Qatar', 'DSMD', 'QA', 0.2747),
  p('PEN', 'Peru', 'XLIM', 'PE', 0.267),
  p('ARS', 'Argentina', 'XBUE', 'AR', 0.0035),
  p('VND', 'Viet Nam', 'XSTC', 'VN', 0.0000414),
  p('PKR', 'Pakistan', 'XKAR', 'PK', 0.00356),
  p('ISK', 'Iceland', 'XICE', 'IS', 0.00728),
  p('KWD', 'Kuwait', 'XKUW', 'KW', 3.25),
  p('LKR', 'Sri Lanka', 'XCOL', 'LK', 0.00307),
  p('KES', 'Kenya', 'XNAI', 'KE', 0.00716),
  p('BDT', 'Bangladesh', 'XDHA', 'BD', 0.00922),
  p('GEL', 'Georgia', 'XLON', 'GE', 0.381),
  p('BGN', 'Bulgaria', 'ZBUL', 'BG', 0.553),
  p('MAD', 'Morocco', 'XCAS', 'MA', 0.0987),
  p('NAD', 'Namibia', 'XJSE', 'NA', 0.0543),
  p('NGN', 'Nigeria', 'XNSA', 'NG', 0.00155),
  p('HRK', 'Croatia', 'XZAG', 'HR', 0.1435),
  p('BHD', 'Bahrain', 'XBAH', 'BH', 2.659),
  p('ZWG', 'Zimbabwe', 'XZIM', 'ZW', 0.0725),
  p('BWP', 'Botswana', 'XJSE', 'BW', 0.0741),
  p('ZWL', 'Zimbabwe', 'XZIM', 'ZW', 0.00031),
];

/** Markets a company may have further listings on; OTCM is never a primary market here, see below. */
export const SECONDARY_MICS = ['XLON', 'XFRA', 'XBER', 'XNGS', 'XSWX', 'XETR', 'XPAR', 'XAMS'] as const;

/**
 * The over-the-counter market of American depositary receipts. No company is primarily listed on
 * it, so an ADR ticker (the home ticker plus "Y") can never clash with another listing there.
 */
export const ADR_MIC = 'OTCM';

export const NAME_WORDS = [
  'Atlas',
  'Borealis',
  'Cobalt',
  'Delta',
  'Élan',
  'Fjord',
  'Granite',
  'Helios',
  'Iris',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Meridian',
  'Nordic',
  'Orion',
  'Pacific',
  'Quantum',
  'Riverside',
  'Sakura',
  'Tundra',
  'Umbra',
  'Vertex',
  'Weißenfels',
  'Xenon',
  'Yukon',
  'Zenith',
  'São Paulo',
  'Østfold',
];

export const NAME_TRADES = [
  'Mining',
  'Holdings',
  'Technologies',
  'Energy',
  'Foods',
  'Logistics',
  'Pharmaceuticals',
  'Bank',
  'Insurance',
  'Telecom',
  'Steel',
  'Retail',
  'Shipping',
  'Semiconductors',
  'Real Estate',
];

/** Legal suffixes, a few with the commas and quotes that make CSV quoting matter. */
export const NAME_SUFFIXES = [
  'Inc.',
  'AG',
  'S.A.',
  'plc',
  'Ltd',
  'K.K.',
  'N.V.',
  'SpA',
  'Co., Ltd.',
  'Corp.',
  '"The" Company',
  'ASA',
];
