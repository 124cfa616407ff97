import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { DniService } from './dni.service';
import { DniReservationDto } from './dto/dni-reservation.dto';

/** DNI reservations (contract §18): the key names the agent (it must reach exactly one). */
@Controller('v1/conversations/dni-reservation')
@RequireApiKey({ permission: 'dni' })
export class DniController {
  constructor(private readonly dni: DniService) {}

  @Post()
  @HttpCode(201)
  reserve(@Body() body: DniReservationDto, @Req() request: FastifyRequest) {
    return this.dni.reserve(keyOf(request)!, body, requestContext(request));
  }
}
