import { Injectable } from '@nestjs/common';
import { Commands } from '../../commands/commands';
import { ServerSecret } from '../../platform/auth/server-secret';
import { Clock } from '../../platform/clock/clock';
import { EMBEDDING_ENDPOINTS_STREAM, type EmbeddingEndpointRecord } from './embedding-endpoint.events';
import type { AddEmbeddingEndpointDto } from './endpoints.dto';
import { endpointsDecider, SealedEndpoints, type EndpointList, type ResolvedEndpoint } from './sealed-endpoints';

const EMBEDDING_ENDPOINTS: EndpointList<'EmbeddingEndpoint'> = {
  eventPrefix: 'EmbeddingEndpoint',
  errorPrefix: 'EMBEDDING_ENDPOINT',
  noun: 'embeddings endpoint',
  stream: EMBEDDING_ENDPOINTS_STREAM,
};

const embeddingEndpointsDecider = endpointsDecider<'EmbeddingEndpoint', EmbeddingEndpointRecord>(EMBEDDING_ENDPOINTS);

/** An embeddings endpoint with its key opened (hybrid retrieval calls it). */
export type ResolvedEmbeddingEndpoint = ResolvedEndpoint<EmbeddingEndpointRecord>;

/**
 * The operator's list of embeddings endpoints an agent's `retrieval` setting may name: kept like
 * the model endpoints (sealed-endpoints.ts), each with the model its calls ask for.
 */
@Injectable()
export class EmbeddingEndpoints extends SealedEndpoints<'EmbeddingEndpoint', EmbeddingEndpointRecord> {
  constructor(commands: Commands, clock: Clock, secret: ServerSecret) {
    super(EMBEDDING_ENDPOINTS, embeddingEndpointsDecider, commands, clock, secret);
  }

  protected recordOf(dto: AddEmbeddingEndpointDto) {
    return { model: dto.model };
  }

  protected viewOf(record: EmbeddingEndpointRecord) {
    return { model: record.model };
  }
}
