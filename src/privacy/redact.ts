import { classify, PATTERN } from './detect';
import { REDACTION_TOKENS, type RedactKind } from './redact-kinds';

/** Every kind needs a digit but email, which needs an @: text with neither is returned without a scan. */
const MAY_HOLD = /[@\d]/;

/**
 * `text` with each match of the kinds named replaced by its token (`[EMAIL]`, `[PHONE]`, `[CARD]`,
 * `[IBAN]`, `[SSN]`); anything else, and a near miss (a wrong check digit, a date, an order number),
 * left as it is. Pure and linear in the text's length (detect.ts).
 */
export function redact(text: string, kinds: readonly RedactKind[]): string {
  if (kinds.length === 0 || !MAY_HOLD.test(text)) return text;
  return text.replace(PATTERN, (match: string, ...rest: unknown[]) => {
    // the replacer's arguments end with the offset, the whole text and the named groups
    const offset = rest[rest.length - 3] as number;
    const groups = rest[rest.length - 1] as Parameters<typeof classify>[1];
    const found = classify(match, groups, text.charAt(offset + match.length));
    if (found === null || !kinds.includes(found.kind)) return match;
    return REDACTION_TOKENS[found.kind] + match.slice(found.length);
  });
}
