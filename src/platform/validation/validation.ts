import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

/** Flattens class-validator's tree into `{field: "a.b.c", message}` rows. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): Array<{ field: string; message: string }> {
  const rows: Array<{ field: string; message: string }> = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) rows.push({ field, message: message.replace(error.property, field) });
    if (error.children?.length) rows.push(...flattenValidationErrors(error.children, field));
  }
  return rows;
}

/** DTOs are validated at the edge; the first problem names its field in the message. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
