/**
 * An error a client can act on. Thrown anywhere (deciders, guards, services); the one exception
 * filter turns it into the envelope of contract §2. `status` is the HTTP status.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 400,
    readonly data: unknown = null,
    /** Field-level details (Alerts API `errors`, validation). */
    readonly fieldErrors: Array<{ field: string; message: string }> = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (
  code: string,
  message: string,
  fieldErrors: Array<{ field: string; message: string }> = [],
) => new DomainError(code, message, 400, null, fieldErrors);
export const notFound = (code: string, message: string) => new DomainError(code, message, 404);
export const conflict = (code: string, message: string, data: unknown = null) =>
  new DomainError(code, message, 409, data);
export const unauthorized = (message = 'missing or invalid credentials', code = 'UNAUTHORIZED') =>
  new DomainError(code, message, 401);
export const forbidden = (message = 'this credential may not do that', code = 'FORBIDDEN') =>
  new DomainError(code, message, 403);
