/** The one error body of the platform (contract §2; the debug chat body of interface.md). */
export interface ErrorEnvelope {
  success: false;
  error: string;
  error_id: string;
  error_code: string;
  error_message: string;
  data: unknown;
  [extra: string]: unknown;
}

export function errorEnvelope(
  correlationId: string,
  code: string,
  message: string,
  data: unknown = null,
): ErrorEnvelope {
  return { success: false, error: message, error_id: correlationId, error_code: code, error_message: message, data };
}

const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

export function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
}
