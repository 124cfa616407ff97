import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { Type } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { Optional, OptionalOrNull } from '../platform/validation/optional';
import { ValidationSchemas } from './validation-schema';

class Inner {
  @IsString() @MaxLength(5) code: string;
}

class Sample {
  @IsString() @MinLength(1) @MaxLength(10) name: string;
  @Optional() @IsIn(['a', 'b']) kind?: string;
  @OptionalOrNull() @IsString() note?: string | null;
  @IsInt() @Min(0) count: number;
  @Optional() @Matches(/^[a-z]+$/) slug?: string;
  @Optional() @IsArray() @ArrayMaxSize(2) @IsString({ each: true }) tags?: string[];
  @Optional() @ValidateNested({ each: true }) @Type(() => Inner) inners?: Inner[];
  @Optional() @IsBoolean() on?: boolean;
  @Allow() anything?: unknown;
}

describe('JSON Schema from class-validator metadata', () => {
  const schemas = new ValidationSchemas();
  const ref = schemas.refFor(Sample);
  const document = { components: { schemas: Object.fromEntries(schemas.components) } };

  test('required, optional, nullable, nested and per-item rules', () => {
    expect(ref).toEqual({ $ref: '#/components/schemas/Sample' });
    const sample = document.components.schemas.Sample as { required: string[]; properties: Record<string, unknown> };
    expect(sample.required).toEqual(['name', 'count']);
    expect(sample.properties.name).toEqual({ type: 'string', minLength: 1, maxLength: 10 });
    expect(sample.properties.note).toEqual({ type: ['string', 'null'] });
    expect(sample.properties.kind).toEqual({ enum: ['a', 'b'] });
    expect(sample.properties.tags).toEqual({ type: 'array', maxItems: 2, items: { type: 'string' } });
    expect(sample.properties.inners).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Inner' } });
    expect(sample.properties.anything).toEqual({});
  });

  // The point of reading the metadata: the schema and the pipe agree on what they refuse.
  test.each([
    [{ name: 'x', count: 0 }, true],
    [{ name: '', count: 0 }, false],
    [{ name: 'x' }, false],
    [{ name: 'x', count: -1 }, false],
    [{ name: 'x', count: 1.5 }, false],
    [{ name: 'x', count: 0, kind: 'c' }, false],
    [{ name: 'x', count: 0, kind: null }, false],
    [{ name: 'x', count: 0, note: null }, true],
    [{ name: 'x', count: 0, slug: 'A1' }, false],
    [{ name: 'x', count: 0, tags: ['a', 'b', 'c'] }, false],
    [{ name: 'x', count: 0, inners: [{ code: 'toolong' }] }, false],
    [{ name: 'x', count: 0, inners: [{ code: 'ok' }], on: true, anything: [1] }, true],
    [{ name: 'x', count: 0, extra: 1 }, false],
  ])('%j: valid = %s, for the schema and for class-validator alike', (input, valid) => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'doc');
    expect(ajv.validate({ $ref: 'doc#/components/schemas/Sample' }, input)).toBe(valid);
    const errors = validateSync(plainToInstance(Sample, input), { whitelist: true, forbidNonWhitelisted: true });
    expect(errors.length === 0).toBe(valid);
  });
});
