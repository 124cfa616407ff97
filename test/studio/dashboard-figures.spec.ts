import { bucketLabel, rate, show, formatPercent, summarise } from '../../studio/src/dashboard/figures';
import { queryOf, selectionFromQuery, windowOf, type Selection } from '../../studio/src/dashboard/range';
import { suggestBranchName, suggestTopicName } from '../../studio/src/dashboard/topic-name';

/** The dashboard's arithmetic without a browser: ranges as the API takes them, rates, names. */
describe('Studio dashboard figures', () => {
  const now = Date.parse('2026-03-10T14:25:00Z');
  const base: Selection = selectionFromQuery(new URLSearchParams(), now);

  it('ends presets with the current hour or UTC day, so each has its whole count of buckets', () => {
    expect(base).toEqual({ range: '7d', from: '2026-03-04', to: '2026-03-10', by: 'day', env: 'live', channels: [] });
    expect(windowOf({ ...base, range: '24h' }, now)).toEqual({
      start_time: '2026-03-09T15:00:00.000Z',
      end_time: '2026-03-10T15:00:00.000Z',
      granularity: 'hour',
    });
    expect(windowOf(base, now)).toEqual({
      start_time: '2026-03-04T00:00:00.000Z',
      end_time: '2026-03-11T00:00:00.000Z',
      granularity: 'day',
    });
    expect(windowOf({ ...base, range: '90d' }, now)).toMatchObject({ start_time: '2025-12-11T00:00:00.000Z' });
  });

  it('takes custom UTC dates, both days included, within the API’s limits', () => {
    const custom = { ...base, range: 'custom' as const, from: '2026-01-01', to: '2026-01-07' };
    expect(windowOf({ ...custom, by: 'hour' }, now)).toEqual({
      start_time: '2026-01-01T00:00:00.000Z',
      end_time: '2026-01-08T00:00:00.000Z',
      granularity: 'hour',
    });
    expect(windowOf({ ...custom, to: '2026-01-08', by: 'hour' }, now)).toEqual({
      error: 'At most 7 days by hour (8 chosen).',
    });
    expect(windowOf({ ...custom, to: '2026-04-02' }, now)).toMatchObject({ granularity: 'day' });
    expect(windowOf({ ...custom, to: '2026-04-03' }, now)).toEqual({ error: 'At most 92 days by day (93 chosen).' });
    expect(windowOf({ ...custom, to: '2025-12-31' }, now)).toEqual({ error: 'The last day comes before the first.' });
    expect(windowOf({ ...custom, from: '' }, now)).toEqual({ error: 'Choose both dates.' });
  });

  it('reads and writes the page’s query, ignoring what it does not know', () => {
    const query = queryOf({ ...base, range: 'custom', env: 'sandbox', channels: ['SMS', 'CHAT'] });
    expect(query).toBe('range=custom&from=2026-03-04&to=2026-03-10&by=day&env=sandbox&channel=SMS&channel=CHAT');
    expect(selectionFromQuery(new URLSearchParams(query), now)).toMatchObject({
      range: 'custom',
      env: 'sandbox',
      channels: ['SMS', 'CHAT'],
    });
    expect(selectionFromQuery(new URLSearchParams('range=1y&env=prod&channel=FAX&from=soon'), now)).toEqual(base);
  });

  it('has no rate without conversations, and says no data rather than zero', () => {
    expect(rate(1, 4)).toBe(25);
    expect(rate(0, 0)).toBeNull();
    expect(show(null, formatPercent)).toBe('no data');
    expect(show(0, formatPercent)).toBe('0.0 %');
    expect(bucketLabel('2026-03-10T14:00:00.000Z', 'hour')).toBe('03-10 14:00');
    expect(bucketLabel('2026-03-10T00:00:00.000Z', 'day')).toBe('2026-03-10');
  });

  it('summarises a chart in a sentence: range, extremes, total and gaps', () => {
    const labels = ['03-10 12:00', '03-10 13:00', '03-10 14:00'];
    expect(
      summarise('Conversations per hour', labels, [{ name: 'Conversations', values: [4, 0, 1] }], String, {
        total: true,
        unit: 'hours',
      }),
    ).toBe(
      'Conversations per hour, 03-10 12:00 to 03-10 14:00 (UTC). Conversations: 5 in total, highest 4 (03-10 12:00), lowest 0 (03-10 13:00).',
    );
    expect(
      summarise('p', labels, [{ name: 'p50', values: [800, null, 800] }], (v) => `${v} ms`, { unit: 'hours' }),
    ).toBe('p, 03-10 12:00 to 03-10 14:00 (UTC). p50: 800 ms throughout, no data in 1 of 3 hours.');
    expect(summarise('p', labels, [{ name: 'p90', values: [null, null, null] }], String)).toBe(
      'p, 03-10 12:00 to 03-10 14:00 (UTC). p90: no data.',
    );
  });

  it('suggests a topic name from the words after the question’s opening, and a branch for it', () => {
    expect(suggestTopicName('what is the weather on mars')).toBe('Weather on mars');
    expect(suggestTopicName('Can I book a taxi to the airport tomorrow morning please?')).toBe(
      'Book a taxi to the airport',
    );
    expect(suggestTopicName('what is it')).toBe('What is it');
    expect(suggestBranchName('Weather on mars')).toBe('topic-weather-on-mars');
    expect(suggestBranchName('¿Qué?')).toBe('topic-que');
    expect(suggestBranchName('!!!')).toBe('new-topic');
  });
});
