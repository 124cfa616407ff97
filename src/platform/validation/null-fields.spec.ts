import { Type } from 'class-transformer';
import { Allow, IsArray, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { Optional, OptionalOrNull } from './optional';
import { createValidationPipe } from './validation';

class Leaf {
  @IsString() code: string;
  @Optional() @IsInt() rank?: number;
  @OptionalOrNull() @IsString() note?: string | null;
}

/** Every way a field can be declared optional, including the ones that never refused null themselves. */
class Root {
  @IsString() name: string;
  @Optional() @IsString() label?: string;
  @Allow() headers?: unknown;
  @IsOptional() @IsString() legacy?: string;
  @OptionalOrNull() @IsString() project_id?: string | null;
  @Optional() @IsObject() @ValidateNested() @Type(() => Leaf) leaf?: Leaf;
  @Optional() @IsArray() @ValidateNested({ each: true }) @Type(() => Leaf) leaves?: Leaf[];
}

const pipes = { compiled: createValidationPipe(), full: createValidationPipe({ compiledDtos: false }) };

describe.each(Object.entries(pipes))('the null rule (%s pipe)', (_name, pipe) => {
  const validate = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Root });
  const refusal = async (value: unknown) => {
    const error = await validate(value).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_ERROR');
    expect((error as DomainError).status).toBe(400);
    return (error as DomainError).fieldErrors;
  };

  it.each(['name', 'label', 'headers', 'legacy', 'leaf', 'leaves'])('refuses %s: null, naming it', async (field) => {
    expect(await refusal({ name: 'x', [field]: null })).toEqual([{ field, message: `${field} must not be null` }]);
  });

  it('refuses null inside nested DTOs and arrays of them, with the path to it', async () => {
    expect(await refusal({ name: 'x', leaf: { code: 'a', rank: null } })).toEqual([
      { field: 'leaf.rank', message: 'leaf.rank must not be null' },
    ]);
    expect(await refusal({ name: 'x', leaves: [{ code: 'a' }, { code: null }] })).toEqual([
      { field: 'leaves.1.code', message: 'leaves.1.code must not be null' },
    ]);
    expect(await refusal({ name: 'x', leaves: [null] })).toEqual([
      { field: 'leaves.0', message: 'leaves.0 must not be null' },
    ]);
  });

  it('names every null field of the body at once', async () => {
    expect((await refusal({ name: null, headers: null, leaf: { code: null } })).map((r) => r.field)).toEqual([
      'name',
      'headers',
      'leaf.code',
    ]);
  });

  it('lets null through where the class documents a meaning for it, at any depth', async () => {
    await expect(validate({ name: 'x', project_id: null })).resolves.toMatchObject({ project_id: null });
    await expect(validate({ name: 'x', leaves: [{ code: 'a', note: null }] })).resolves.toMatchObject({
      leaves: [{ code: 'a', note: null }],
    });
  });

  it('leaves null inside free-form values (not DTO fields) to the service, and extra keys to the whitelist', async () => {
    await expect(validate({ name: 'x', headers: { 'X-A': null } })).resolves.toMatchObject({
      headers: { 'X-A': null },
    });
    expect(await refusal({ name: 'x', extra: null })).toEqual([
      { field: 'extra', message: 'property extra should not exist' },
    ]);
  });
});
