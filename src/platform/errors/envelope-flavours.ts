/**
 * Two API families add fields to the common envelope (contract §2): the Alerts API repeats the
 * message as `message` with field details in `errors`; SMS repeats it as `detail`.
 */
export function envelopeExtras(path: string, message: string, fieldErrors: Array<{ field: string; message: string }>) {
  if (path.startsWith('/v1/alert-rules') || path.startsWith('/v1/alerts')) return { message, errors: fieldErrors };
  if (path.startsWith('/v1/outbound-sms') || path.startsWith('/v1/sms')) return { detail: message };
  return fieldErrors.length > 0 ? { errors: fieldErrors } : {};
}
