import { detectSmallTalk } from './small-talk';

describe('detectSmallTalk', () => {
  it.each([
    ['hi', 'greeting'],
    ['Hello there!', 'greeting'],
    ['good morning', 'greeting'],
    ['hey team', 'greeting'],
    ['thanks', 'thanks'],
    ['Thank you so much!', 'thanks'],
    ['great, cheers', 'thanks'],
    ['ok thanks bye', 'goodbye'],
    ['Goodbye', 'goodbye'],
    ['bye bye', 'goodbye'],
    ['thanks, see you', 'goodbye'],
    ['good night', 'goodbye'],
    ['thats all, thank you, have a nice day', 'thanks'],
    ['Héllo', 'greeting'],
  ] as const)('%j is %s', (text, kind) => {
    expect(detectSmallTalk(text)).toBe(kind);
  });

  it.each([
    '',
    '   ',
    'ok',
    'yes',
    'no',
    'hi, when are you open?',
    'thanks, can I get a refund',
    'hello I need help with my booking',
    'bye the way where is my parcel',
    'what are your opening hours',
    'thanks '.repeat(13),
    '???',
  ])('%j is not small talk', (text) => {
    expect(detectSmallTalk(text)).toBeNull();
  });
});
