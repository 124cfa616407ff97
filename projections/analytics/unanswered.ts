/**
 * A user input as the unanswered list groups it (contract §23): lower case, punctuation and
 * symbols dropped, runs of spaces made one, at most 200 characters. "Where's my PARCEL?!" and
 * "wheres my parcel" are one line of the list.
 */
export function normalizeInput(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim()
    .slice(0, 200)
    .trim();
}
