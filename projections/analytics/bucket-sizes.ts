export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The two bucket sizes analytics keeps every figure in (contract §23's granularities). */
export const BUCKET_SIZES = [
  { size: 'h', ms: HOUR_MS },
  { size: 'd', ms: DAY_MS },
] as const;
