/** Market Identifier Codes the API accepts as `mic_code`, in the order the spec lists them. */
export const MIC_CODES = [
  'XAMM', 'XMLI', 'ALXP', 'XDUB', 'XNCO', 'XMAU', 'VPXB', 'FNLT', 'AQSG', 'XKUW', 'XWAR', 'XTRN',
  'XAMS', 'XDHA', 'XZAG', 'XPRM', 'XKRX', 'NOTC', 'FSME', 'MTAA', 'XSHG', 'XSAU', 'XLUX', 'XBOG',
  'SCLE', 'XSES', 'XJSE', 'XXXX', 'GROW', 'XNSE', 'OTCM', 'XTAI', 'BJSE', 'RUSX', 'XFRA', 'XHEL',
  'MISX', 'XNCM', 'XEQY', 'XRIS', 'ZBUL', 'XDFM', 'HAMN', 'XMAI', 'XNSA', 'WBDM', 'XMAE', 'XBER',
  'XLJM', 'XCAI', 'XBUE', 'XHKG', 'XNYS', 'MERK', 'AIXK', 'XOAS', 'ENAX', 'XADS', 'XLJU', 'XTKS',
  'XBOM', 'XKLS', 'ARCX', 'XKAZ', 'XBRN', 'XPHS', 'XKAR', 'NSME', 'XSAT', 'XZIM', 'XTSE', 'XNMS',
  'XBIL', 'XMUN', 'XIDX', 'BATS', 'XNGS', 'ALXB', 'ENXL', 'XSHE', 'XBAR', 'XNZE', 'XBSE', 'XLIS',
  'XHAM', 'XLIT', 'AQST', 'XCSE', 'XSGO', 'XSTO', 'XNAI', 'XSTC', 'SSME', 'XCNQ', 'XLIM', 'DSME',
  'XBKK', 'XCOL', 'XGUA', 'XMAL', 'DSMD', 'XASE', 'ROCO', 'XDUS', 'XBAH', 'HSTC', 'XBUD', 'FNIS',
  'XSTU', 'XCYS', 'XMAD', 'XLON', 'XBRA', 'XKOS', 'EXGM', 'XCAN', 'XICE', 'XBRU', 'ABUL', 'XTAE',
  'XTSX', 'XCAS', 'BVMF', 'XMEX', 'XSWX', 'XHNX', 'FNLV', 'XATH', 'XETR', 'XPRA', 'XPAR', 'HMOD',
  'XNGM', 'XBEL', 'XOSL', 'XMUS', 'XTAL', 'XASX', 'WBAH', 'NEOE', 'XLAT',
] as const;

export type MicCode = (typeof MIC_CODES)[number];

const MIC_SET: ReadonlySet<string> = new Set(MIC_CODES);

export function isMicCode(value: string): value is MicCode {
  return MIC_SET.has(value);
}
