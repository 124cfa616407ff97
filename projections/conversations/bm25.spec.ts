import Database from 'better-sqlite3';
import { bm25 } from './bm25';

describe('bm25', () => {
  it('scores a row exactly as FTS5 ranks it, from the same counts', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='unicode61')`);
    const docs: Array<[string, string]> = [
      ['parcel late again', 'your parcel is on its way'],
      ['parcel', ''],
      ['where is my refund', 'refunds take five days refund refund'],
      ['refund refund', 'parcel'],
      ['hello', 'hi there how can i help'],
      ['tracking number', 'the tracking number is in the email'],
    ];
    const insert = db.prepare('INSERT INTO t (rowid, a, b) VALUES (?, ?, ?)');
    docs.forEach(([a, b], i) => insert.run(i + 1, a, b));
    const words = (row: [string, string]) => `${row[0]} ${row[1]}`.split(' ').filter(Boolean);
    const phrases = ['parcel', 'refund', 'tracking'];
    const totals = { rows: docs.length, tokens: docs.reduce((n, d) => n + words(d).length, 0) };
    const phraseRows = phrases.map((p) => docs.filter((d) => words(d).includes(p)).length);
    const ranked = db
      .prepare(`SELECT rowid AS id, rank FROM t WHERE t MATCH ? ORDER BY rowid`)
      .all(phrases.map((p) => `"${p}"`).join(' OR ')) as Array<{ id: number; rank: number }>;
    expect(ranked.length).toBe(5);
    for (const { id, rank } of ranked) {
      const row = docs[id - 1];
      const frequencies = phrases.map((p) => words(row).filter((w) => w === p).length);
      expect(bm25(totals, phraseRows, frequencies, words(row).length)).toBe(rank);
    }
    db.close();
  });
});
