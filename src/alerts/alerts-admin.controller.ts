import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { AlertEvaluator } from './alert-evaluator';

/** Operator API (contract §3): run an evaluation round now. */
@Controller('admin/v1/alerts')
@UseGuards(OperatorGuard)
export class AlertsAdminController {
  constructor(private readonly evaluator: AlertEvaluator) {}

  @Post('evaluate')
  @HttpCode(200)
  async evaluate() {
    const round = await this.evaluator.evaluate();
    return {
      evaluated_at: round.evaluatedAt,
      evaluated: round.evaluated,
      transitions: round.transitions.map((t) => ({
        alert_rule_id: t.ruleId,
        from: t.from,
        to: t.to,
        current_value: t.currentValue,
      })),
    };
  }
}
