import { IsBoolean, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../platform/validation/optional';
import {
  CONNECTOR_KINDS,
  NUMBER_ENVIRONMENTS,
  NUMBER_POOLS,
  REGIONS,
  type ConnectorKind,
  type NumberEnvironment,
  type NumberPool,
  type Region,
} from '../permissions';

export class CreateAccountDto {
  @IsString() @MinLength(1) @MaxLength(200) name: string;
  @IsIn(REGIONS as unknown as string[], { message: `region must be one of ${REGIONS.join(', ')}` }) region: Region;
}

export class CreateConnectorDto {
  @IsString() @MinLength(1) @MaxLength(80) agentId: string;
  @IsIn(CONNECTOR_KINDS as unknown as string[], { message: `kind must be one of ${CONNECTOR_KINDS.join(', ')}` })
  kind: ConnectorKind;
  @IsString() @MinLength(1) @MaxLength(20) environment: string;
  /** messaging: the site domain the widget runs on (subdomains match too) */
  @Optional()
  @Matches(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i, {
    message: 'hostDomain must be a domain name such as example.com',
  })
  hostDomain?: string;
}

export const E164 = /^\+[1-9]\d{6,14}$/;

export class ProvisionPhoneNumberDto {
  @Matches(E164, { message: 'number must be an E.164 phone number such as +15551234567' }) number: string;
  @IsIn(NUMBER_ENVIRONMENTS as unknown as string[], {
    message: `environment must be one of ${NUMBER_ENVIRONMENTS.join(', ')}`,
  })
  environment: NumberEnvironment;
  @Optional()
  @IsIn(NUMBER_POOLS as unknown as string[], { message: `pool must be one of ${NUMBER_POOLS.join(', ')}` })
  pool?: NumberPool;
}

export class AgentSettingsDto {
  @IsBoolean() chunked_streaming: boolean;
}
