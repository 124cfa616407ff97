import { IsIn, IsInt, IsObject, Max, Min, ValidateBy } from 'class-validator';
import { DEPLOYMENT_ENVIRONMENTS, type DeploymentEnvironment } from '../../platform/auth/environments';
import { Optional } from '../../platform/validation/optional';

/** The most a reservation's attributes may weigh, as JSON (contract §18). */
const MAX_ATTRIBUTES_BYTES = 16 * 1024;

const withinSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= MAX_ATTRIBUTES_BYTES;

export class DniReservationDto {
  @IsObject({ message: 'attributes must be an object' })
  @ValidateBy({
    name: 'attributesSize',
    validator: {
      validate: (value: unknown) => !Array.isArray(value) && withinSize(value),
      defaultMessage: () => `attributes must be an object of at most ${MAX_ATTRIBUTES_BYTES} bytes as JSON`,
    },
  })
  attributes: Record<string, unknown>;

  @Optional()
  @IsInt({ message: 'ttl_s must be an integer from 60 to 86400' })
  @Min(60, { message: 'ttl_s must be an integer from 60 to 86400' })
  @Max(86_400, { message: 'ttl_s must be an integer from 60 to 86400' })
  ttl_s?: number;

  @Optional()
  @IsIn(DEPLOYMENT_ENVIRONMENTS as unknown as string[], {
    message: `client_env must be one of ${DEPLOYMENT_ENVIRONMENTS.join(', ')}`,
  })
  client_env?: DeploymentEnvironment;
}
