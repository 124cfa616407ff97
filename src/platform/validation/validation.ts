import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

type Row = { field: string; message: string };

/**
 * Flattens class-validator's tree into `{field: "a.b.c", message}` rows. A field that is absent or
 * null says so ("name is required", "name must not be null"), not which of its other rules happened
 * to be checked first.
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): Row[] {
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
 * is not a JSON object (an array, a string, null) is refused before class-transformer sees it.
 */
class EdgeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type === 'body' && value !== undefined && !isPlainObject(value) && this.toValidate(metadata)) {
      throw new DomainError('VALIDATION_ERROR', 'the body must be a JSON object', 400, null, [
        { field: 'body', message: 'the body must be a JSON object' },
      ]);
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new EdgeValidationPipe({
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
}
