/** What a deployment's `privacy.redact` may name (contract §24), in the order settings store them. */
export const REDACT_KINDS = ['email', 'phone', 'card', 'iban', 'ssn'] as const;
export type RedactKind = (typeof REDACT_KINDS)[number];

/** The text a match of each kind is replaced by. */
export const REDACTION_TOKENS: Readonly<Record<RedactKind, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  card: '[CARD]',
  iban: '[IBAN]',
  ssn: '[SSN]',
};
