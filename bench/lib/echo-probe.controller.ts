import { Body, Controller, HttpCode, Post } from '@nestjs/common';

/** The baseline of the external-events bench: a NestJS-Fastify POST that echoes its JSON body, in the same app. */
@Controller('bench/echo')
export class EchoProbeController {
  @Post()
  @HttpCode(201)
  echo(@Body() body: unknown) {
    return body;
  }
}
