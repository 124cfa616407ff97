import { Controller, Get, Header } from '@nestjs/common';
import { CHAT_DEMO_PAGE } from './chat-demo.page';

/** GET /chat/demo?connector=<connector token>: the demo web chat (the page reads its query itself). */
@Controller('chat')
export class ChatDemoController {
  @Get('demo')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header(
    'content-security-policy',
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
  )
  @Header('cache-control', 'no-store')
  page() {
    return CHAT_DEMO_PAGE;
  }
}
