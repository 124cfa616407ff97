import { DomainError } from '../platform/errors/domain-error';
import type { AnalysisField } from './analysis-settings';
import { applySettingsPatch, checkSetting } from './runtime-settings';

/* The runtime setting `analysis` (contract §24): what is kept, and every hostile shape refused with a field name. */

const field = (over: Record<string, unknown> = {}) =>
  ({ name: 'reason', type: 'string', description: 'Why the customer called', ...over }) as AnalysisField;

describe('runtime setting analysis', () => {
  it('keeps the fields as set, in order; no fields is the default', () => {
    const fields = [
      field(),
      { name: 'resolved', type: 'boolean', description: 'Was it solved' },
      { name: 'mood', type: 'enum', description: 'How they felt', values: ['happy', 'angry'] },
      { name: 'items', type: 'number', description: 'How many items' },
    ];
    expect(checkSetting('analysis', { fields })).toEqual({ fields });
    expect(checkSetting('analysis', { fields: [] })).toBeUndefined();
    expect(checkSetting('analysis', {})).toBeUndefined();
    expect(checkSetting('analysis', null)).toBeUndefined();
    expect(applySettingsPatch({ small_talk: false }, { analysis: { fields: [field()] } })).toEqual({
      small_talk: false,
      analysis: { fields: [field()] },
    });
  });

  it.each([
    ['not an object', [], 'analysis'],
    ['an unknown key', { fields: [], prompt: 'x' }, 'analysis.prompt'],
    ['fields not an array', { fields: { a: 1 } }, 'analysis.fields'],
    ['21 fields', { fields: Array.from({ length: 21 }, (_, i) => field({ name: `f${i}` })) }, 'analysis.fields'],
    ['a field not an object', { fields: ['reason'] }, 'analysis.fields.0'],
    ['a name twice', { fields: [field(), field({ type: 'number' })] }, 'analysis.fields.1.name'],
    ['__proto__ as a name', { fields: [field({ name: '__proto__' })] }, 'analysis.fields.0.name'],
    ['a name with a space', { fields: [field({ name: 'call reason' })] }, 'analysis.fields.0.name'],
    ['a 65-character name', { fields: [field({ name: 'a'.repeat(65) })] }, 'analysis.fields.0.name'],
    ['an unknown type', { fields: [field({ type: 'date' })] }, 'analysis.fields.0.type'],
    ['an empty description', { fields: [field({ description: ' ' })] }, 'analysis.fields.0.description'],
    ['a long description', { fields: [field({ description: 'x'.repeat(501) })] }, 'analysis.fields.0.description'],
    ['values on a string field', { fields: [field({ values: ['a'] })] }, 'analysis.fields.0.values'],
    ['an enum without values', { fields: [field({ type: 'enum' })] }, 'analysis.fields.0.values'],
    ['an enum with no values', { fields: [field({ type: 'enum', values: [] })] }, 'analysis.fields.0.values'],
    ['an enum value twice', { fields: [field({ type: 'enum', values: ['a', 'a'] })] }, 'analysis.fields.0.values'],
    ['an enum value not a string', { fields: [field({ type: 'enum', values: [1] })] }, 'analysis.fields.0.values'],
    [
      '51 enum values',
      { fields: [field({ type: 'enum', values: Array.from({ length: 51 }, (_, i) => `v${i}`) })] },
      'analysis.fields.0.values',
    ],
    ['an unknown field key', { fields: [field({ required: true })] }, 'analysis.fields.0.required'],
  ])('refuses %s, naming %s', (_what, value, name) => {
    let error: unknown;
    try {
      checkSetting('analysis', value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(400);
    expect((error as DomainError).fieldErrors[0].field).toBe(name);
  });
});
