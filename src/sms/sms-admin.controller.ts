import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { queryParam } from '../platform/http/query-params';
import { smsSessionsQueries, type SmsSessionsQueries } from '../../projections/sms-sessions/queries';
import { badRequest } from '../platform/errors/domain-error';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { ReadModels } from '../read-models/read-models.service';
import { E164 } from './inbound-sms';

const LIMIT = 1000;

/** Contract §3: what the carrier delivered, to or from `number` (the latest 1000, oldest first). */
@Controller('admin/v1/sms')
@UseGuards(OperatorGuard)
export class SmsAdminController {
  private readonly sms: SmsSessionsQueries;

  constructor(readModels: ReadModels) {
    this.sms = smsSessionsQueries(readModels);
  }

  @Get('messages')
  async messages(@Query() raw: Record<string, unknown>) {
    const number = queryParam(raw, 'number');
    if (number !== undefined && !E164.test(number)) {
      throw badRequest('VALIDATION_ERROR', 'number must be an E.164 phone number such as +15551234567', [
        { field: 'number', message: 'number must be an E.164 phone number' },
      ]);
    }
    const rows = await this.sms.latestMessages(number ?? null, LIMIT);
    return {
      messages: rows.map((r) => ({
        id: r.id,
        conversation_id: r.conversationId,
        from: r.fromNumber,
        to: r.toNumber,
        text: r.text,
        status: r.status,
        carrier: r.carrier,
        provider_message_id: r.providerMessageId,
        error: r.error,
        sent_at: r.at,
      })),
    };
  }
}
