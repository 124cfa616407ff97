import { ibanLength, ibanValid } from './iban';
import { luhnValid } from './luhn';
import { internationalPhone, trunkPhone } from './phone';
import type { RedactKind } from './redact-kinds';
import { ssnValid } from './ssn';

/*
 * Every shape of personal data, one alternative each, in one pattern, so one scan finds them all.
 * At a position the first alternative that matches takes the span, and its checker decides: a span
 * that is not what its shape says (a card number failing Luhn, an IBAN failing mod 97, an SSN in a
 * range never issued) is left as it is, whole, and no later alternative looks inside it. That is
 * the overlap rule: an email before anything in it, then IBAN, card, SSN, and phone last, so
 * neither a card number nor a wrong one ever becomes a phone number.
 *
 * Linear time: every alternative starts with a lookbehind that refuses a position inside a run of
 * the characters it would take (a match can only begin where such a run begins), and every
 * repetition is either bounded or delimited by a character its body cannot take, so backtracking
 * after a failure walks back over each character at most a bounded number of times.
 */

/** local@domain.tld: letters, digits and `._%+-` before the @, labels of letters, digits and `-` after. */
const EMAIL = String.raw`(?<email>(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)`;

/** Country, check digits, then the BBAN: run together, or in groups of four (the print format). */
const IBAN = String.raw`(?<iban>(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{10,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,3})?)(?![A-Za-z0-9]))`;

/**
 * 13 to 19 digits: run together, or grouped as card numbers are printed (4-4-4-4, 4-6-5, 4-4-4-4-3,
 * by spaces or dashes). A group may follow: an expiry's month (`4111 1111 1111 1111 12/28`).
 */
const CARD = String.raw`(?<card>(?<![\w.+/-])(?=(?:\d[ -]?){13})(?:\d{13,19}|\d{4}[ -]\d{4,6}[ -]\d{4,5}(?:[ -]\d{1,4}){0,2})(?!\w))`;

/** NNN-NN-NNNN (or with spaces), not inside a longer run of digits and dashes. */
const SSN = String.raw`(?<ssn>(?<![\w.+/-])\d{3}(?<ssnsep>[ -])\d{2}\k<ssnsep>\d{4}(?!\w|[-/.]\d))`;

/** `+`, the country code and the number, in groups by spaces, dots or dashes, with an optional `(0)` or `(area)`. */
const INTERNATIONAL = String.raw`(?<international>(?<![\w+])\+\d{1,15}(?:[ .-]?\(\d{1,5}\)[ .-]?\d{1,8}|[ .-]\d{1,8})*(?!\d))`;

/** North American: (555) 123-4567, 555-123-4567, 555.123.4567, 1 800 555 0199, or ten digits run together. */
const NANP = String.raw`(?<nanp>(?<![\w+#$£€/.-])(?:(?:1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}|1?[2-9]\d{2}[2-9]\d{6})(?!\w|[.,-]\d))`;

/** A national number after its trunk prefix 0: 020 7946 0958, 06 12 34 56 78, (02) 9876 5432, 07700900123. */
const TRUNK = String.raw`(?<trunk>(?<![\w+#$£€/.:-])(?:(?:\(0\d{1,4}\) ?|0\d{1,4}[ .-])\d{2,8}(?:[ .-]\d{2,8}){0,4}|0\d{9,11})(?!\d|[.,-]\d))`;

export const PATTERN = new RegExp([EMAIL, IBAN, CARD, SSN, INTERNATIONAL, NANP, TRUNK].join('|'), 'g');

type Groups = Partial<Record<'email' | 'iban' | 'card' | 'ssn' | 'international' | 'nanp' | 'trunk', string>>;

/**
 * What a match of PATTERN is: its kind and how many of its first characters are it, or null (left
 * as it is). `next`: the character after the match.
 */
export function classify(match: string, groups: Groups, next: string): { kind: RedactKind; length: number } | null {
  if (groups.email !== undefined)
    return /\.[A-Za-z]{2,24}$/.test(match) ? { kind: 'email', length: match.length } : null;
  if (groups.iban !== undefined) return iban(match);
  if (groups.card !== undefined) return card(match, next);
  if (groups.ssn !== undefined)
    return ssnValid(match.slice(0, 3), match.slice(4, 6), match.slice(7))
      ? { kind: 'ssn', length: match.length }
      : null;
  if (groups.international !== undefined)
    return internationalPhone(match) ? { kind: 'phone', length: match.length } : null;
  if (groups.nanp !== undefined) return { kind: 'phone', length: match.length };
  return trunkPhone(match) ? { kind: 'phone', length: match.length } : null;
}

/** The IBAN at the start of the span, exactly its country's length, ending where a group ends. */
function iban(match: string): { kind: RedactKind; length: number } | null {
  const length = ibanLength(match.slice(0, 2).toUpperCase());
  if (length === undefined) return null;
  let compact = '';
  let end = 0;
  while (end < match.length && compact.length < length) {
    if (match[end] !== ' ') compact += match[end];
    end++;
  }
  if (compact.length < length || (end < match.length && match[end] !== ' ')) return null;
  return ibanValid(compact.toUpperCase()) ? { kind: 'iban', length: end } : null;
}

/**
 * The span's digits when they pass Luhn; else, when its last group is an expiry's month (1 or 2
 * digits, then `/`), the digits before it. Nothing shorter: a number one digit off is not a card
 * that happens to start it.
 */
function card(match: string, next: string): { kind: RedactKind; length: number } | null {
  const digits = match.replace(/[ -]/g, '');
  if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return { kind: 'card', length: match.length };
  const month = /[ -]\d{1,2}$/.exec(match);
  if (next !== '/' || month === null) return null;
  const before = digits.slice(0, digits.length - month[0].length + 1);
  return before.length >= 13 && luhnValid(before) ? { kind: 'card', length: month.index } : null;
}
