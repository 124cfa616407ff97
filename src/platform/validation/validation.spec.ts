import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { Optional, OptionalOrNull } from './optional';
import { createValidationPipe } from './validation';

class Probe {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @Optional() @IsBoolean() enabled?: boolean;
  @OptionalOrNull() @IsString() project_id?: string | null;
}

const pipe = createValidationPipe();
const validate = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Probe });
const refusal = async (value: unknown) => {
  const error = await validate(value).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

describe('the validation pipe', () => {
  it('says a missing required field is required, not which length rule ran first', async () => {
    const error = await refusal({});
    expect(error.message).toBe('name is required');
    expect(error.fieldErrors).toEqual([{ field: 'name', message: 'name is required' }]);
  });

  it('refuses null in an optional field, naming it', async () => {
    const error = await refusal({ name: 'x', enabled: null });
    expect(error.fieldErrors).toEqual([{ field: 'enabled', message: 'enabled must not be null' }]);
    expect((await refusal({ name: null })).message).toBe('name must not be null');
  });

  it('lets an optional field be absent, and null where null is documented', async () => {
    await expect(validate({ name: 'x' })).resolves.toMatchObject({ name: 'x' });
    await expect(validate({ name: 'x', project_id: null })).resolves.toMatchObject({ project_id: null });
    expect((await refusal({ name: 'x', enabled: 'yes' })).message).toBe('enabled must be a boolean value');
  });

  it('refuses a body that is not a JSON object before class-transformer walks it', async () => {
    for (const body of ['{"name":"x"}', ['x'], null, 42]) {
      const error = await refusal(body);
      expect(error.status).toBe(400);
      expect(error.message).toBe('the body must be a JSON object');
    }
  });

  it('still names an extra field as extra, even when it is null', async () => {
    expect((await refusal({ name: 'x', extra: null })).message).toBe('property extra should not exist');
  });
});
