/**
 * Small talk: a message made only of greetings, thanks and goodbyes ("hi", "thanks a lot",
 * "ok thanks bye") is answered politely without retrieval, which would otherwise call it out of
 * domain. Anything else in the message (a question, a topic word) makes it not small talk, so
 * "hi, when are you open?" still reaches the knowledge base. Pure: words in, a kind out.
 */
export type SmallTalkKind = 'greeting' | 'thanks' | 'goodbye';

const GREETING = ['hi', 'hello', 'hey', 'hiya', 'howdy', 'greetings', 'morning', 'afternoon', 'evening', 'yo'];
const THANKS = ['thanks', 'thank', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate', 'grateful', 'thankyou'];
const GOODBYE = ['bye', 'goodbye', 'byebye', 'farewell', 'cya', 'later', 'goodnight', 'ciao'];
/** Words that may come with them without adding a request. */
const FILLER = [
  'ok',
  'okay',
  'k',
  'kk',
  'great',
  'good',
  'cool',
  'nice',
  'perfect',
  'awesome',
  'brilliant',
  'lovely',
  'alright',
  'right',
  'so',
  'very',
  'much',
  'many',
  'a',
  'lot',
  'you',
  'u',
  'your',
  'for',
  'the',
  'help',
  'helping',
  'all',
  'that',
  'it',
  'is',
  'was',
  'thats',
  'there',
  'then',
  'oh',
  'well',
  'again',
  'and',
  'have',
  'nice',
  'day',
  'see',
  'talk',
  'soon',
  'to',
  'take',
  'care',
  'now',
  'for',
  'now',
  'i',
  'im',
  'am',
  'done',
  'no',
  'nope',
  'nothing',
  'else',
  'fine',
  'sir',
  'madam',
  'mate',
  'folks',
  'everyone',
  'guys',
  'team',
  'good',
  'day',
  'night',
  'yes',
  'yep',
  'sure',
  'got',
  'understood',
  'noted',
  'super',
  'fantastic',
  'excellent',
  'wonderful',
  'amazing',
];

const KIND = new Map<string, SmallTalkKind | null>([
  ...FILLER.map((w) => [w, null] as const),
  ...GREETING.map((w) => [w, 'greeting'] as const),
  ...THANKS.map((w) => [w, 'thanks'] as const),
  ...GOODBYE.map((w) => [w, 'goodbye'] as const),
]);

/** Longer messages are never small talk: a paragraph that happens to be polite is still a request. */
const MAX_WORDS = 12;

/** The kind of small talk a message is, or null when it says anything else. Goodbye wins over thanks over a greeting. */
export function detectSmallTalk(text: string): SmallTalkKind | null {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]/g, '')
    .split(/[^a-z]+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > MAX_WORDS) return null;
  const kinds = new Set<SmallTalkKind>();
  for (const word of words) {
    if (!KIND.has(word)) return null;
    const kind = KIND.get(word);
    if (kind) kinds.add(kind);
  }
  // "see you" and "good night" say goodbye in filler words alone
  const farewell = (words.includes('see') && words.includes('you')) || words.includes('night');
  if (kinds.has('goodbye') || farewell) return 'goodbye';
  if (kinds.has('thanks')) return 'thanks';
  if (kinds.has('greeting')) return 'greeting';
  return null;
}

export const SMALL_TALK_REPLIES: Record<SmallTalkKind, string> = {
  greeting: 'Hello! How can I help you today?',
  thanks: "You're welcome! Is there anything else I can help you with?",
  goodbye: 'Goodbye, and thank you for getting in touch!',
};
