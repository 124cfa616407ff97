import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { flatDtoBuilder } from './flat-dto';
import { nullFields } from './null-fields';
import { undeclaredFields } from './undeclared-fields';

type Row = { field: string; message: string };

/**
 * Flattens class-validator's tree into `{field: "a.b.c", message}` rows. A field that is absent or
 * null says so ("name is required", "name must not be null"), not which of its other rules happened
 * to be checked first.
 */
function flattenValidationErrors(errors: ValidationError[], parent = ''): Row[] {
  const rows: Row[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const messages = Object.values(constraints);
    const extra = 'whitelistValidation' in constraints;
    if (messages.length > 0 && !extra && error.value === undefined)
      rows.push({ field, message: `${field} is required` });
    else if (messages.length > 0 && !extra && error.value === null)
      rows.push({ field, message: `${field} must not be null` });
    else for (const message of messages) rows.push({ field, message: message.replace(error.property, field) });
    if (error.children?.length) rows.push(...flattenValidationErrors(error.children, field));
  }
  return rows;
}

const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * DTOs are validated at the edge; the first problem names its field in the message. A body that
 * is not a JSON object (an array, a string, null) is refused before class-transformer sees it, and
 * one holding `null` where its DTO takes none (null-fields.ts), or a key it does not declare
 * (undeclared-fields.ts), before any other rule. A body a
 * flat DTO accepts is built by its compiled check (flat-dto.ts), a hot route's every
 * request; whatever it does not accept goes through the full pipe, which says why.
 */
class EdgeValidationPipe extends ValidationPipe {
  /** false: every body takes the full pipe (tests compare the two) */
  compiledDtos = true;

  override async transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type === 'body' && value !== undefined && this.toValidate(metadata)) {
      if (!isPlainObject(value)) {
        throw new DomainError('VALIDATION_ERROR', 'the body must be a JSON object', 400, null, [
          { field: 'body', message: 'the body must be a JSON object' },
        ]);
      }
      const nulls = nullFields(metadata.metatype!, value as Record<string, unknown>);
      if (nulls.length > 0)
        throw new DomainError('VALIDATION_ERROR', nulls.map((r) => r.message).join('; '), 400, null, nulls);
      const extra = undeclaredFields(metadata.metatype!, value as Record<string, unknown>);
      if (extra.length > 0)
        throw new DomainError('VALIDATION_ERROR', extra.map((r) => r.message).join('; '), 400, null, extra);
      if (this.compiledDtos && Object.getPrototypeOf(value) === Object.prototype) {
        const dto = flatDtoBuilder(metadata.metatype as new () => object)?.(value as Record<string, unknown>);
        if (dto) return dto;
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(options: { compiledDtos?: boolean } = {}): ValidationPipe {
  const pipe = new EdgeValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const rows = flattenValidationErrors(errors);
      const message = rows.length > 0 ? rows.map((r) => r.message).join('; ') : 'request body is invalid';
      return new DomainError('VALIDATION_ERROR', message, 400, null, rows);
    },
  });
  pipe.compiledDtos = options.compiledDtos ?? true;
  return pipe;
}
