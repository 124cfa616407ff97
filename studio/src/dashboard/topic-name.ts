/**
 * Names suggested for a topic made from an unanswered input: the words after the question's
 * opening ("what is the", "can I", "tell me"), so "what is the weather on mars" suggests
 * "Weather on mars" and the branch `topic-weather-on-mars`. Only a suggestion: the editor shows
 * it in a field to change.
 */
const OPENING = new Set(
  (
    'what whats where wheres when why how who which is are was were do does did can could would will should ' +
    'i im ive you your we my me our the a an to it its there please hi hello hey tell know about ok so'
  ).split(' '),
);

const MAX_WORDS = 6;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .split(/\s+/)
    .filter(Boolean);
}

export function suggestTopicName(text: string): string {
  const all = words(text);
  const first = all.findIndex((w) => !OPENING.has(w));
  const kept = (first === -1 ? all : all.slice(first)).slice(0, MAX_WORDS).join(' ');
  const name = kept || text.trim();
  return (name.charAt(0).toUpperCase() + name.slice(1)).slice(0, 200);
}

/** A branch name the API takes (`[A-Za-z0-9][A-Za-z0-9._/-]{0,99}`) for the topic. */
export function suggestBranchName(topicName: string): string {
  const slug = topicName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug ? `topic-${slug}` : 'new-topic';
}
