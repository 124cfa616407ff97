/**
 * The texts of interface.md's "Errors delivered as EVENT_TYPE_SYSTEM_MESSAGE" table, exactly, and
 * the one this build adds for a message dropped by the per-session rate limit.
 */
export const SYSTEM_MESSAGES = {
  invalidFormat: 'Unknown event type or invalid message format',
  notAllowed: (type: string) => `Event type not allowed: ${type}`,
  highLoad: 'high-load message (try again in a moment)',
  unableToStart: 'unable to start a conversation',
  troubleResponding: 'trouble responding',
  encounteredError: 'encountered an error',
  sessionNotFound: 'Error: Session not found',
  unableToRetrieveSession: 'Error: Unable to retrieve session',
  connectorNotFound: 'Error: Connector not found',
  conversationNotFound: 'Error: Conversation not found',
  conversationIdNotFound: 'Error: Conversation ID not found in session',
  couldNotConnect: 'could not connect you to an agent',
  failedToForward: 'Failed to forward message to live agent',
  handoffNotInitiated: 'handoff could not be initiated',
  rateLimited: 'rate limit exceeded: message dropped (try again in a moment)',
} as const;

/** The HTTP answers of interface.md's access-token, session and handshake tables. */
export const HTTP_ERRORS = {
  missingAuthHeaders: ['MISSING_AUTH_HEADERS', 'Missing authentication headers', 401],
  connectorTokenUnknown: ['CONNECTOR_TOKEN_NOT_FOUND', 'Connector token does not exist', 401],
  connectorHostMismatch: ['CONNECTOR_VALIDATION_FAILED', 'Failed to validate connector', 401],
  connectorMissingHost: ['CONNECTOR_MISSING_HOST_DOMAIN', 'Connector missing host domain', 401],
  tokenCreationFailed: ['ACCESS_TOKEN_CREATION_FAILED', 'Failed to create access token', 500],
  missingAccessToken: ['MISSING_ACCESS_TOKEN', 'Missing access token', 400],
  invalidAccessToken: ['INVALID_ACCESS_TOKEN', 'Invalid access token', 401],
  parseError: ['INVALID_REQUEST_BODY', 'Error parsing request', 400],
  sessionCreationFailed: ['SESSION_CREATION_FAILED', 'Failed to create session', 500],
  sessionNotFound: ['SESSION_NOT_FOUND', 'session not found', 404],
  authenticationFailed: ['AUTHENTICATION_FAILED', 'authentication failed', 401],
  connectionLimit: ['CONNECTION_LIMIT_EXCEEDED', 'connection limit exceeded for session', 429],
  invalidParameters: ['INVALID_CONNECTION_PARAMETERS', 'invalid connection parameters', 400],
  rateLimited: ['RATE_LIMITED', 'rate limit exceeded; retry later', 429],
} as const satisfies Record<string, readonly [string, string, number]>;

export type HttpErrorName = keyof typeof HTTP_ERRORS;
