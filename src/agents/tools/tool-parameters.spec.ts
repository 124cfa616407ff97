import { parametersProblem, toolArguments } from './tool-parameters';

describe('tool parameters', () => {
  const schema = {
    type: 'object',
    properties: {
      order: { type: 'string' },
      quantity: { type: 'integer' },
      gift: { type: 'boolean' },
      items: { type: 'array', items: { type: 'string' } },
    },
    required: ['order'],
  };

  it('accepts a JSON Schema object and refuses what is not one', () => {
    expect(parametersProblem(schema)).toBeNull();
    expect(parametersProblem({ type: 'object' })).toBeNull();
    expect(parametersProblem(null)).toMatch(/JSON Schema object/);
    expect(parametersProblem({ type: 'array' })).toMatch(/"object"/);
    expect(parametersProblem({ type: 'object', properties: { a: { type: 'strin' } } })).toMatch(
      /not a JSON Schema type/,
    );
    expect(parametersProblem({ type: 'object', required: ['a'] })).toMatch(/not in properties/);
    expect(parametersProblem({ type: 'object', properties: { name: { type: 'string' } } })).toMatch(/reserved/);
    expect(parametersProblem({ type: 'object', properties: { 'a b': { type: 'string' } } })).toMatch(/argument name/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 12; i++) deep = { type: 'object', properties: { a: deep } };
    expect(parametersProblem(deep)).toMatch(/deeper/);
  });

  it('turns string arguments into the declared types, leaving out undeclared ones', () => {
    expect(toolArguments(schema, { order: 'A-1', quantity: '2', gift: 'true', items: '["x"]', extra: 'no' })).toEqual({
      ok: true,
      value: { order: 'A-1', quantity: 2, gift: true, items: ['x'] },
    });
    expect(toolArguments(schema, { order: 'A-1', quantity: '2.5' })).toMatchObject({ ok: false });
    expect(toolArguments(schema, { quantity: '1' })).toEqual({ ok: false, error: 'missing required argument "order"' });
    expect(toolArguments(schema, { order: 'A', quantity: 3 })).toEqual({
      ok: true,
      value: { order: 'A', quantity: 3 },
    });
  });
});
