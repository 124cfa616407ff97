import { normalizeInput } from './unanswered';

describe('normalizeInput', () => {
  it('groups inputs that differ in case, punctuation and spaces', () => {
    expect(normalizeInput("Where's my PARCEL?!")).toBe('wheres my parcel');
    expect(normalizeInput('  wheres   my parcel ')).toBe('wheres my parcel');
    expect(normalizeInput('Où est   mon colis ?')).toBe('où est mon colis');
  });

  it('leaves nothing of an input made only of punctuation, and bounds the length', () => {
    expect(normalizeInput('?!... ')).toBe('');
    expect(normalizeInput('a'.repeat(500))).toHaveLength(200);
  });
});
