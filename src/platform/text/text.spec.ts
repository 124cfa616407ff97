import { analyse, hyphenJoined, isStopword, normalise, stem, stems, tokenise, tokeniseClauses } from './text';

describe('normalise', () => {
  it('folds case and strips accents (NFKD)', () => {
    expect(normalise('Remboursément')).toBe('remboursement');
    expect(normalise('ÇA VA Über naïve')).toBe('ca va uber naive');
    expect(normalise('ﬁle')).toBe('file');
  });
  it('leaves plain ASCII as lower case', () => {
    expect(normalise('Refund NOW')).toBe('refund now');
  });
});

describe('tokenise', () => {
  it('splits on anything that is not a letter or digit', () => {
    expect(tokenise('Refunds, deliveries & charges: 24/7!')).toEqual(['refunds', 'deliveries', 'charges', '24', '7']);
  });
  it('drops apostrophes inside words and single letters', () => {
    expect(tokenise("what's the customer’s order? I don't know")).toEqual([
      'whats',
      'the',
      'customers',
      'order',
      'dont',
      'know',
    ]);
  });
  it('keeps letters of other scripts and folds their accents', () => {
    expect(tokenise('Кредит — 東京 café Ёлка')).toEqual(['кредит', '東京', 'cafe', 'елка']);
  });
  it('returns nothing for empty or punctuation-only text', () => {
    expect(tokenise('')).toEqual([]);
    expect(tokenise(' ?!  ... ')).toEqual([]);
  });
});

describe('tokeniseClauses', () => {
  it('tokenises run by run of text between punctuation, keeping hyphens and apostrophes inside', () => {
    expect(tokeniseClauses("Where do I sign? Up the stairs, then check-in (desk 2); it's there")).toEqual([
      ['where', 'do', 'sign'],
      ['up', 'the', 'stairs'],
      ['then', 'check', 'in'],
      ['desk', '2'],
      ['its', 'there'],
    ]);
    expect(tokeniseClauses('log\nin')).toEqual([['log'], ['in']]);
    expect(tokeniseClauses(' ?! ')).toEqual([]);
  });
  it('holds the words of tokenise, in order', () => {
    const text = "Refunds, deliveries & charges: 24/7! What's the customer’s order?";
    expect(tokeniseClauses(text).flat()).toEqual(tokenise(text));
  });
});

describe('stopwords', () => {
  it('recognises common function words', () => {
    for (const w of ['the', 'how', 'do', 'i', 'get', 'whats', 'dont']) expect(isStopword(w)).toBe(true);
    for (const w of ['refund', 'delivery', 'weather']) expect(isStopword(w)).toBe(false);
  });
  it('are removed by analyse and stems', () => {
    expect(stems('How do I get a refund?')).toEqual(['refund']);
    expect(analyse('The deliveries')).toEqual([{ surface: 'deliveries', stem: 'deliver' }]);
  });
});

describe('stem', () => {
  const same = (...words: string[]) => expect(new Set(words.map(stem)).size).toBe(1);

  it('conflates inflections', () => {
    same('refund', 'refunds', 'refunded', 'refunding');
    same('cancel', 'cancellation', 'cancelation', 'cancelling', 'canceling', 'cancelled', 'canceled', 'cancels');
    same('delivery', 'deliveries', 'delivered', 'deliver', 'delivering');
    same('charge', 'charges', 'charging', 'charged');
    same('payment', 'payments', 'pay', 'paying');
    same('ship', 'shipping', 'shipped');
    same('address', 'addresses');
    same('reservation', 'reserve', 'reserved', 'reserving');
  });

  it('keeps unrelated words apart', () => {
    expect(stem('refund')).not.toBe(stem('return'));
    expect(stem('charge')).not.toBe(stem('change'));
    expect(stem('open')).not.toBe(stem('opinion'));
  });

  it('leaves short words, words with digits and non-Latin words alone', () => {
    expect(stem('bus')).toBe('bus');
    expect(stem('status')).toBe('status');
    expect(stem('4g')).toBe('4g');
    expect(stem('кредит')).toBe('кредит');
  });

  it('matches accented and plain spellings once normalised', () => {
    expect(stems('remboursément')).toEqual(stems('remboursement'));
  });
});

describe('hyphenJoined', () => {
  it('gives the joined form of hyphenated words, which stems also indexes', () => {
    expect(hyphenJoined('Wi-Fi and check-in, not 24-7')).toEqual(['wifi', 'checkin']);
    expect(hyphenJoined('no hyphen here')).toEqual([]);
    expect(stems('Wi-Fi')).toEqual(['wi', 'fi', 'wifi']);
  });
});
