/**
 * The length of an IBAN in each country of the ISO 13616 registry (the SWIFT IBAN registry): a
 * candidate is checked over exactly its country's length, so words written after it do not spoil it.
 */
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18',
    'DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23',
    'IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31',
    'MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24',
    'SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30',
  ]
    .join(' ')
    .split(' ')
    .map((entry): [string, number] => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** The IBAN's length in its country (the first two letters, upper case), undefined for no registered country. */
export const ibanLength = (country: string): number | undefined => IBAN_LENGTHS.get(country);

/**
 * ISO 13616's check on an IBAN without spaces, upper case: its country's length, a BBAN of letters
 * and digits with at least as many digits as letters (every registered format has; a run of words
 * does not), and mod 97 of the rearranged number equal to 1 (ISO 7064).
 */
export function ibanValid(compact: string): boolean {
  if (compact.length !== IBAN_LENGTHS.get(compact.slice(0, 2))) return false;
  let letters = 0;
  let remainder = 0;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  for (let i = 0; i < rearranged.length; i++) {
    const c = rearranged.charCodeAt(i);
    if (c >= 48 && c <= 57) remainder = (remainder * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) {
      if (i < rearranged.length - 4) letters++;
      remainder = (remainder * 100 + (c - 55)) % 97;
    } else return false;
  }
  return letters * 2 <= compact.length - 4 && remainder === 1;
}
