import { Inject, Injectable } from '@nestjs/common';
import { DeploymentContent } from '../agents/deployment-content';
import { ReadableAtOnce } from '../conversations/readable-at-once';
import { DEPLOYMENT_FOR_NUMBER_ENVIRONMENT, type NumberEnvironment } from '../accounts/permissions';
import type { Environment } from '../agents/agent.events';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { keyCanReachAgent, type KeyRecord } from '../platform/auth/key-principal';
import type { RateLimiter } from '../platform/auth/rate-limiter';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { badRequest, DomainError, forbidden, notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import type { Connector as ConnectorRow } from '../../projections/accounts/queries';
import { parseInboundSms } from './inbound-sms';
import { SmsDirectory } from './sms-directory';
import type { OutboundSmsDto } from './sms.dto';
import { deliveredTo, smsSessionStream, type SmsRoute } from './sms-session.decider';
import { SMS_SESSION_COMMANDS, type SmsSessionCommands } from './sms-session-commands';
import { SMS_SESSIONS_PROCESS } from './sms-sessions.process-manager';
import { checkSignature } from './sms-signature';

export const SMS_RATE_LIMITER = Symbol('SmsRateLimiter');

/**
 * The SMS API (contract §11): checks credentials, numbers and rate, then decides on the number
 * pair's session stream and returns. The conversation, the agent's answers and the texts follow
 * behind the log (sms-sessions.process-manager.ts).
 */
@Injectable()
export class SmsService {
  constructor(
    @Inject(SMS_SESSION_COMMANDS) private readonly sessions: SmsSessionCommands,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    @Inject(SMS_RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly directory: SmsDirectory,
    private readonly deployments: DeploymentContent,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly readable: ReadableAtOnce,
  ) {}

  async outbound(key: KeyRecord, connectorId: string | undefined, dto: OutboundSmsDto, context: CommandContext) {
    if (!connectorId)
      throw new DomainError('CONNECTOR_ID_MISSING', 'X-TOKEN-ID (the SMS connector id) is required', 401);
    const connector = await this.directory.connector(connectorId);
    if (!connector) throw notFound('CONNECTOR_NOT_FOUND', 'no SMS connector has this id');
    if (connector.accountId !== key.accountId)
      throw forbidden('this key belongs to another account than the connector', 'ACCOUNT_FORBIDDEN');
    if (!keyCanReachAgent(key, connector.agentId))
      throw forbidden("this key is not scoped to the connector's agent", 'AGENT_FORBIDDEN');
    if ((await this.agents.accountOf(connector.agentId)) === null)
      throw notFound('AGENT_NOT_FOUND', "the connector's agent no longer exists");
    this.limiter.take(connector.agentId);
    const agentNumber = await this.senderFor(connector, dto.agent_number);
    if (agentNumber === dto.user_number)
      throw badRequest('VALIDATION_ERROR', 'user_number is the agent number itself', [
        { field: 'user_number', message: 'user_number is the agent number itself' },
      ]);
    const route = await this.route(connector);
    if (route.deploymentId === null)
      throw notFound(
        'NO_ACTIVE_DEPLOYMENT',
        `no deployment is active in ${route.environment} for this connector's agent`,
      );
    const conversationId = `SMS-${this.ids.uuid()}`;
    const command = {
      type: 'OpenOutbound' as const,
      conversationId,
      agentNumber,
      userNumber: dto.user_number,
      text: dto.message,
      route: { ...route, deploymentId: route.deploymentId },
      now: this.clock.nowIso(),
    };
    const result = await this.sessions.handle(smsSessionStream(agentNumber, dto.user_number), command, context);
    // the session this one replaced has ended once the answer is sent: its conversation too (issue 47)
    const replaced = result.events.find((e) => e.type === 'SmsSessionEnded');
    if (replaced) await this.readable.ended(replaced.data.conversationId, result.position!, SMS_SESSIONS_PROCESS);
    return { conversation_id: conversationId, agent_number: agentNumber };
  }

  async inbound(
    connectorId: string,
    contentType: string,
    raw: Buffer,
    signature: string | undefined,
    context: CommandContext,
  ) {
    const connector = await this.directory.connector(connectorId);
    if (!connector || !connector.sealedWebhookSecret)
      throw notFound('CONNECTOR_NOT_FOUND', 'no SMS connector has this id');
    const verdict = checkSignature(this.secret.decrypt(connector.sealedWebhookSecret), raw, signature);
    if (verdict === 'missing')
      throw new DomainError(
        'SIGNATURE_MISSING',
        'X-Signature is required: sha256=<hex HMAC-SHA256 of the raw body with the webhook secret>',
        401,
      );
    if (verdict === 'invalid') throw new DomainError('SIGNATURE_INVALID', 'X-Signature does not match the body', 401);
    const sms = parseInboundSms(contentType, raw);
    if (!(await this.directory.numberOf(connector.agentId, connector.environment, sms.to))) {
      throw badRequest(
        'SMS_NUMBER_NOT_PROVISIONED',
        `${sms.to} is not provisioned for this connector's agent in ${connector.environment}`,
        [{ field: 'to', message: 'not a provisioned number of this connector' }],
      );
    }
    if ((await this.agents.accountOf(connector.agentId)) === null)
      throw notFound('AGENT_NOT_FOUND', "the connector's agent no longer exists");
    const command = {
      type: 'ReceiveInbound' as const,
      newConversationId: `SMS-${this.ids.uuid()}`,
      agentNumber: sms.to,
      userNumber: sms.from,
      text: sms.text,
      providerMessageId: sms.provider_message_id,
      route: await this.route(connector),
      now: this.clock.nowIso(),
    };
    const result = await this.sessions.handle(smsSessionStream(sms.to, sms.from), command, context);
    return {
      conversation_id: deliveredTo(result.state, sms.provider_message_id),
      status: result.events.length > 0 ? 'received' : 'duplicate',
    };
  }

  /** interface.md "SMS API": a given agent_number must be provisioned (400); else the first of the environment's (404 when none). */
  private async senderFor(connector: ConnectorRow, requested: string | undefined): Promise<string> {
    if (requested !== undefined) {
      if (await this.directory.numberOf(connector.agentId, connector.environment, requested)) return requested;
      const message = `agent_number ${requested} is not provisioned for this agent in ${connector.environment}`;
      throw badRequest('AGENT_NUMBER_NOT_PROVISIONED', message, [{ field: 'agent_number', message }]);
    }
    const [first] = await this.directory.numbersOf(connector.agentId, connector.environment);
    if (!first)
      throw notFound('SMS_NUMBER_NOT_FOUND', `no number is provisioned for this agent in ${connector.environment}`);
    return first;
  }

  private async route(
    connector: ConnectorRow,
  ): Promise<Omit<SmsRoute, 'deploymentId'> & { deploymentId: string | null }> {
    const environment: Environment = DEPLOYMENT_FOR_NUMBER_ENVIRONMENT[connector.environment as NumberEnvironment];
    return {
      accountId: connector.accountId,
      agentId: connector.agentId,
      connectorId: connector.id,
      numberEnvironment: connector.environment,
      environment,
      deploymentId: await this.deployments.activeDeploymentId(connector.agentId, environment),
    };
  }
}
