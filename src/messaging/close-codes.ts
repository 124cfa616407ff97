/**
 * WebSocket close codes the server ends a socket with when the credential behind it stops being
 * valid (docs/sockets.md), in the private-use range. 4401: the credential ran out, a fresh one of
 * the same kind reconnects (the chat client fetches a new access token). 4403: it was withdrawn
 * (key deleted); retrying with it is pointless.
 */
export const CLOSE_CREDENTIAL_EXPIRED = { code: 4401, reason: 'credential expired' } as const;
export const CLOSE_CREDENTIAL_REVOKED = { code: 4403, reason: 'credential revoked' } as const;

export type CredentialClose = typeof CLOSE_CREDENTIAL_EXPIRED | typeof CLOSE_CREDENTIAL_REVOKED;
