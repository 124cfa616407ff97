import { DomainError } from '../platform/errors/domain-error';
import { HTTP_ERRORS, type HttpErrorName } from './system-messages';

/** One row of interface.md's messaging error tables, as the error the one exception filter answers. */
export function httpError(
  name: HttpErrorName,
  headers: Record<string, string> = {},
  fieldErrors: Array<{ field: string; message: string }> = [],
): DomainError {
  const [code, message, status] = HTTP_ERRORS[name];
  return new DomainError(code, message, status, null, fieldErrors, headers);
}
