import { routeDocs } from '../openapi/route-docs';
import { bool, int, obj, str } from '../openapi/schema-helpers';
import { ChatDemoController } from './chat-demo.controller';
import { MessagingHttpController } from './messaging-http.controller';

export const messagingHttpDocs = routeDocs(MessagingHttpController, 'messaging', {
  accessToken: {
    summary: "A web chat access token for a site (X-Token: the connector's token, X-Host: the site)",
    errors: [401, 403],
    headers: [{ name: 'X-Host', required: true, description: "the widget's site domain", schema: str }],
    responses: {
      200: {
        description: 'A JWT for /api/v1/sessions and the WebSocket',
        schema: obj({ access_token: str, expires_in: int, token_type: { const: 'Bearer' } }),
      },
    },
  },
  createSession: {
    summary: 'Open a web chat session (then connect to /ws?session_id=&access_token=)',
    errors: [401],
    body: {
      schema: obj({}, { streaming_enabled: bool, platform: str }),
      required: false,
      example: { streaming_enabled: true, platform: 'web' },
    },
    responses: { 200: { description: 'The session', schema: obj({ session_id: str }) } },
  },
});

export const chatDemoDocs = routeDocs(ChatDemoController, 'messaging', {
  page: {
    summary: 'The demo web chat page (?connector=<connector token>)',
    security: [],
    query: [{ name: 'connector', description: "a messaging connector's token", schema: str }],
    responses: { 200: { description: 'An HTML page', contentType: 'text/html', schema: str } },
  },
});
