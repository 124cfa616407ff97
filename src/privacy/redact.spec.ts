import fc from 'fast-check';
import { ibanValid } from './iban';
import { luhnValid } from './luhn';
import { redact } from './redact';
import { REDACT_KINDS, type RedactKind } from './redact-kinds';

const ALL = REDACT_KINDS;
const RUNS = { numRuns: 300 };

const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (min: number, max = min) => fc.array(digit, { minLength: min, maxLength: max }).map((d) => d.join(''));
const nonZero = fc.integer({ min: 1, max: 9 }).map(String);
const twoToNine = fc.integer({ min: 2, max: 9 }).map(String);
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Words around the value: letters and punctuation, no digit and no @, so nothing of theirs joins the value. */
const word = fc.constantFrom(
  'my',
  'number',
  'is',
  'please',
  'call',
  'me',
  'on',
  'the',
  'card',
  'Thanks!',
  'ok,',
  'account',
  'IBAN:',
  '(urgent)',
  'é',
  'ça',
  '—',
  'and',
  'x',
);
const words = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
/** `value` inside random text, set apart by a space or punctuation. */
const embedded = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(
      words,
      fc.constantFrom(' ', ': ', ' "', '\n'),
      value,
      fc.constantFrom(' ', '. ', ', ', '" ', '\n', '!'),
      words,
    )
    .map(([before, open, v, close, after]) => ({ value: v, text: `${before}${open}${v}${close}${after}` }));

// ---------------------------------------------------------------------------------------------
// What is caught

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const email = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9._%+-]{0,20}[A-Za-z0-9])?$/),
    fc.array(label, { minLength: 1, maxLength: 3 }),
    fc.stringMatching(/^[a-z]{2,6}$/),
  )
  .map(([local, labels, tld]) => `${local}@${labels.join('.')}.${tld}`);

/** A card number of a brand's prefix and length, its last digit the Luhn check digit. */
const cardDigits = fc
  .constantFrom(
    { prefix: '4', lengths: [13, 16, 19] },
    { prefix: '51', lengths: [16] },
    { prefix: '55', lengths: [16] },
    { prefix: '2221', lengths: [16] },
    { prefix: '34', lengths: [15] },
    { prefix: '37', lengths: [15] },
    { prefix: '6011', lengths: [16, 19] },
    { prefix: '36', lengths: [14] },
    { prefix: '35', lengths: [16, 17, 18, 19] },
  )
  .chain(({ prefix, lengths }) =>
    fc.constantFrom(...lengths).chain((length) => digits(length - prefix.length - 1).map((body) => prefix + body)),
  )
  .map((partial) => partial + checkDigit(partial));

function checkDigit(partial: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(partial + d)) return String(d);
  throw new Error('unreachable');
}

/** As people write them: run together, in fours by spaces or dashes, or Amex's 4-6-5. */
const asCardWritten = (number: string) =>
  fc.constantFrom(' ', '-', '').map((sep) => {
    if (sep === '') return number;
    if (number.length === 15) return [number.slice(0, 4), number.slice(4, 10), number.slice(10)].join(sep);
    return number.match(/.{1,4}/g)!.join(sep);
  });
const card = cardDigits.chain(asCardWritten);

/** Countries and their BBAN's shape: d a digit, A an upper-case letter. */
const IBAN_FORMATS: Record<string, string> = {
  DE: 'dddddddddddddddddd',
  GB: 'AAAAdddddddddddddd',
  FR: 'ddddddddddddddddddddddd',
  NL: 'AAAAdddddddddd',
  ES: 'dddddddddddddddddddd',
  IT: 'Adddddddddddddddddddddd',
  BE: 'dddddddddddd',
  NO: 'ddddddddddd',
  CH: 'ddddddddddddddddd',
  PL: 'dddddddddddddddddddddddd',
};
const letter = fc.integer({ min: 65, max: 90 }).map((c) => String.fromCharCode(c));
const bban = (format: string) =>
  fc.tuple(...[...format].map((c) => (c === 'd' ? digit : letter))).map((chars) => chars.join(''));

/** ISO 13616's check digits of a country and BBAN: 98 minus the mod 97 of BBAN, country, 00. */
function ibanCheck(country: string, bbanText: string): string {
  const numeric = [...`${bbanText}${country}00`].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  let remainder = 0;
  for (const c of numeric) remainder = (remainder * 10 + Number(c)) % 97;
  return pad(98 - remainder, 2);
}

const ibanParts = fc
  .constantFrom(...Object.keys(IBAN_FORMATS))
  .chain((country) => bban(IBAN_FORMATS[country]).map((b) => ({ country, bban: b, check: ibanCheck(country, b) })));
const asIbanWritten = (compact: string) =>
  fc.constantFrom('compact', 'grouped', 'lower').map((how) =>
    how === 'compact'
      ? compact
      : how === 'grouped'
        ? compact.match(/.{1,4}/g)!.join(' ')
        : compact
            .toLowerCase()
            .match(/.{1,4}/g)!
            .join(' '),
  );
const iban = ibanParts.chain(({ country, bban: b, check }) => asIbanWritten(`${country}${check}${b}`));

const ssnParts = fc.tuple(
  fc.integer({ min: 1, max: 899 }).filter((a) => a !== 666),
  fc.integer({ min: 1, max: 99 }),
  fc.integer({ min: 1, max: 9999 }),
);
const ssn = ssnParts.map(([a, g, s]) => `${pad(a, 3)}-${pad(g, 2)}-${pad(s, 4)}`);

const sep = fc.constantFrom(' ', '-', '.');
/** E.164 numbers: a country code, then the national number in groups of 2 to 4, 8 to 15 digits in all. */
const internationalPhone = fc
  .tuple(nonZero, digits(0, 2), fc.array(digits(2, 4), { minLength: 2, maxLength: 4 }), sep, fc.boolean())
  .filter(([first, cc, groups]) => {
    const n = first.length + cc.length + groups.join('').length;
    return n >= 8 && n <= 15;
  })
  .map(([first, cc, groups, s, compact]) => `+${first}${cc}${compact ? '' : ' '}${groups.join(compact ? '' : s)}`);
/** North American numbers as written: (AAA) EEE-NNNN, AAA-EEE-NNNN, AAA.EEE.NNNN, 1 AAA EEE NNNN, ten digits. */
const nanpPhone = fc
  .tuple(twoToNine, digits(2), twoToNine, digits(2), digits(4), fc.integer({ min: 0, max: 4 }))
  .map(([a1, a, e1, e, n, style]) => {
    const [area, exchange] = [a1 + a, e1 + e];
    return [
      `(${area}) ${exchange}-${n}`,
      `${area}-${exchange}-${n}`,
      `${area}.${exchange}.${n}`,
      `1 ${area} ${exchange} ${n}`,
      `${area}${exchange}${n}`,
    ][style];
  });
/** National numbers after a trunk 0: the UK's, France's, Germany's and Australia's common layouts. */
const trunkPhone = fc.oneof(
  fc.tuple(digits(2), digits(4), digits(4)).map(([a, b, c]) => `0${a} ${b} ${c}`),
  fc.tuple(digits(4), digits(6)).map(([a, b]) => `07${a.slice(1)} ${b}`),
  fc
    .tuple(nonZero, fc.array(digits(2), { minLength: 4, maxLength: 4 }), fc.constantFrom(' ', '.', '-'))
    .map(([d, pairs, s]) => `0${d}${s}${pairs.join(s)}`),
  fc.tuple(digits(3), digits(7, 8)).map(([a, b]) => `0${a} ${b}`),
  fc.tuple(nonZero, digits(4), digits(4)).map(([a, b, c]) => `(0${a}) ${b} ${c}`),
  fc.tuple(nonZero, digits(9)).map(([a, b]) => `0${a}${b}`),
);
const phone = fc.oneof(internationalPhone, nanpPhone, trunkPhone);

const KINDS: Array<[RedactKind, fc.Arbitrary<string>, string]> = [
  ['email', email, '[EMAIL]'],
  ['phone', phone, '[PHONE]'],
  ['card', card, '[CARD]'],
  ['iban', iban, '[IBAN]'],
  ['ssn', ssn, '[SSN]'],
];

describe('redact: what it catches', () => {
  it.each(KINDS)('always catches a valid %s in surrounding text', (_kind, value, token) => {
    fc.assert(
      fc.property(embedded(value), ({ value: v, text }) => {
        const out = redact(text, ALL);
        expect(out).not.toContain(v);
        expect(out).toContain(token);
        // the digits are gone too, however the value was written
        const run = v.replace(/\D/g, '');
        if (run.length >= 8) expect(out.replace(/\D/g, '')).not.toContain(run);
      }),
      RUNS,
    );
  });

  it.each(KINDS)('replaces a %s only when its kind is on, and leaves the rest of the text as it was', (kind, value) => {
    fc.assert(
      fc.property(embedded(value), ({ text }) => {
        expect(
          redact(
            text,
            ALL.filter((k) => k !== kind),
          ),
        ).toBe(text);
        expect(redact(text, [])).toBe(text);
        expect(redact(text, [kind])).toBe(redact(text, ALL));
      }),
      RUNS,
    );
  });

  it('catches several values in one text', () => {
    fc.assert(
      fc.property(email, phone, card, iban, ssn, words, (e, p, c, i, s, w) => {
        const out = redact(`${w} ${e}, ${p}; ${c} / ${i} (${s}) ${w}`, ALL);
        expect(out).toBe(`${w} [EMAIL], [PHONE]; [CARD] / [IBAN] ([SSN]) ${w}`);
      }),
      RUNS,
    );
  });

  it('reads examples as people write them', () => {
    expect(redact('mail jane.doe+billing@example.co.uk.', ALL)).toBe('mail [EMAIL].');
    expect(redact('card 4111 1111 1111 1111 exp 12/28', ALL)).toBe('card [CARD] exp 12/28');
    expect(redact('card 4111 1111 1111 1111 12/28', ALL)).toBe('card [CARD] 12/28');
    expect(redact('IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX', ALL)).toBe('IBAN [IBAN] BIC COBADEFFXXX');
    expect(redact('BE68 5390 0754 7034 then', ALL)).toBe('[IBAN] then');
    expect(redact('+33 (0)6 12 34 56 78 or +1 (555) 234-5678', ALL)).toBe('[PHONE] or [PHONE]');
    expect(redact('5551234567@txt.example.com', ALL)).toBe('[EMAIL]');
    expect(redact('SSN 123-45-6789.', ALL)).toBe('SSN [SSN].');
  });
});

// ---------------------------------------------------------------------------------------------
// What is left alone

const wrongLuhn = cardDigits
  .chain((number) =>
    fc.integer({ min: 1, max: 9 }).map((k) => number.slice(0, -1) + ((Number(number.slice(-1)) + k) % 10)),
  )
  .chain(asCardWritten);
const wrongIban = ibanParts
  .chain(({ country, bban: b, check }) =>
    fc
      .integer({ min: 2, max: 98 })
      .filter((c) => pad(c, 2) !== check)
      .map((c) => `${country}${pad(c, 2)}${b}`),
  )
  .chain(asIbanWritten);
const invalidSsn = fc
  .oneof(
    ssnParts.map(([, g, s]) => [0, g, s]),
    ssnParts.map(([, g, s]) => [666, g, s]),
    fc.tuple(fc.integer({ min: 900, max: 999 }), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9999 })),
    ssnParts.map(([a, , s]) => [a, 0, s]),
    ssnParts.map(([a, g]) => [a, g, 0]),
  )
  .map(([a, g, s]) => `${pad(a, 3)}-${pad(g, 2)}-${pad(s, 4)}`);
const year = fc.integer({ min: 1900, max: 2099 });
const month = fc.integer({ min: 1, max: 12 }).map((m) => pad(m, 2));
const day = fc.integer({ min: 1, max: 28 }).map((d) => pad(d, 2));
const hour = fc.integer({ min: 0, max: 23 }).map((h) => pad(h, 2));
const minute = fc.integer({ min: 0, max: 59 }).map((m) => pad(m, 2));
const date = fc
  .tuple(year, month, day, fc.integer({ min: 0, max: 3 }))
  .map(([y, m, d, style]) => [`${y}-${m}-${d}`, `${m}/${d}/${y}`, `${d}.${m}.${y}`, `${d}-${m}-${y}`][style]);
const time = fc
  .tuple(hour, minute, minute, fc.integer({ min: 0, max: 2 }))
  .map(([h, m, s, style]) => [`${h}:${m}`, `${h}:${m}:${s}`, `${h}:${m}-${h}:${s}`][style]);
const dateTime = fc.tuple(date, time).map(([d, t]) => `${d} ${t}`);
const orderNumber = fc.oneof(
  fc.tuple(letter, digits(5)).map(([l, d]) => `#${l}-${d}`),
  fc.tuple(year, digits(6)).map(([y, d]) => `ORD-${y}-${d}`),
  digits(4, 8).map((d) => `#${d}`),
  fc.tuple(letter, letter, digits(6, 10)).map(([a, b, d]) => `${a}${b}-${d}`),
);
const price = fc
  .tuple(fc.integer({ min: 0, max: 9_999_999 }), digits(2), fc.integer({ min: 0, max: 4 }))
  .map(([whole, cents, style]) => {
    const grouped = whole.toLocaleString('en-US');
    return [
      `$${grouped}.${cents}`,
      `£${whole}`,
      `€${grouped.replace(/,/g, '.')},${cents}`,
      `${grouped.replace(/,/g, ' ')},${cents} €`,
      `USD ${whole}.${cents}`,
    ][style];
  });
const shortRuns = fc.array(digits(1, 9), { minLength: 1, maxLength: 4 }).map((runs) => runs.join(' kg and '));

const NEAR_MISSES: Array<[string, fc.Arbitrary<string>]> = [
  ['a card number with a wrong Luhn digit', wrongLuhn],
  ['an IBAN with a wrong checksum', wrongIban],
  ['an SSN in a range never issued', invalidSsn],
  ['a date', date],
  ['a time', time],
  ['a date and a time', dateTime],
  ['an order number', orderNumber],
  ['a price', price],
  ['short runs of digits', shortRuns],
];

describe('redact: what it leaves alone', () => {
  it.each(NEAR_MISSES)('leaves %s as it is', (_what, value) => {
    fc.assert(
      fc.property(embedded(value), ({ text }) => {
        expect(redact(text, ALL)).toBe(text);
      }),
      RUNS,
    );
  });

  it('leaves the examples of the issue as they are', () => {
    const text =
      'On 2026-12-07 or 12/07/2026 at 12:30 (07.12.2026 10:30), order #A-12345 and ORD-2026-000123 cost ' +
      '$1,299.99 or £30; 23 kg, 55 x 40 x 20 cm, call 555 0100, room 101, 4111 1111 1111 1112, ' +
      'DE89 3704 0044 0532 0130 01, 000-12-3456, 666-12-3456, 912-34-5678, 123-00-4567, 123-45-0000.';
    expect(redact(text, ALL)).toBe(text);
  });
});

// ---------------------------------------------------------------------------------------------
// Any text at all

describe('redact: any text', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({
      unit: fc.constantFrom('0', '1', '9', ' ', '-', '.', '+', '(', ')', '@', 'a', 'D', 'E'),
      maxLength: 80,
    }),
  );

  it('never throws, and a second pass changes nothing', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = redact(text, ALL);
        expect(redact(once, ALL)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('is linear on hostile text: a megabyte of any shape in well under a second', () => {
    const n = 1 << 20;
    for (const text of [
      '1'.repeat(n),
      '1 '.repeat(n / 2),
      '+1 2'.repeat(n / 4),
      'a@b.'.repeat(n / 4),
      'a.b-c+d'.repeat(n / 7) + '@',
      'x@' + 'a-'.repeat(n / 2),
      'DE89' + ' 3704'.repeat(n / 5),
      '01 23 '.repeat(n / 6),
      '(0'.repeat(n / 2),
      '4111 1111 1111 1111 '.repeat(n / 20),
    ]) {
      const started = performance.now();
      redact(text, ALL);
      // a catastrophic backtrack takes minutes here; a linear scan about 0.1 s
      expect(performance.now() - started).toBeLessThan(5000);
    }
  });
});

describe('the checks', () => {
  it('Luhn and ISO 13616 on known numbers', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(ibanValid('XX82WEST12345698765432')).toBe(false);
  });
});
