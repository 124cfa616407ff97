/** How many digits a string holds. */
function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** A date at the start (`07.12.2026`, `01-02-26`), followed by anything but its own separator and a digit. */
const DATE_LED = /^\d{1,2}([./-])\d{1,2}\1\d{2,4}(?!\1?\d)/;

/**
 * Whether a number written with a leading `+` is a phone number: E.164 allows at most 15 digits
 * with the country code, and no country's full number has fewer than 8.
 */
export const internationalPhone = (candidate: string): boolean => {
  const digits = digitCount(candidate);
  return digits >= 8 && digits <= 15;
};

/**
 * Whether a number with a national trunk prefix (`020 7946 0958`, `06 12 34 56 78`, `0151
 * 12345678`, `(02) 9876 5432`) is a phone number: 9 to 12 digits, and not a date with something
 * after it (`07.12.2026 10`, the hour of a time).
 */
export const trunkPhone = (candidate: string): boolean => {
  const digits = digitCount(candidate);
  return digits >= 9 && digits <= 12 && !DATE_LED.test(candidate);
};
