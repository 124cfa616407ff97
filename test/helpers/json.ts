/**
 * A JSON body a test reads back from the server (an HTTP answer, a WebSocket frame, a webhook
 * delivery). Left open on purpose: the test's assertions are what check its shape, and a type
 * spelled out for every answer would only restate them, or drift from them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a body under test, checked by the assertions that read it
export type Json = any;
