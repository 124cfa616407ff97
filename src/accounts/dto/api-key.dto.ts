import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { Optional } from '../../platform/validation/optional';
import { PERMISSIONS, type Permission } from '../permissions';

/** `"all"`, or a non-empty list of agent ids (prefixed or bare). */
function IsKeyAgents(options?: ValidationOptions) {
  return (target: object, property: string) =>
    registerDecorator({
      name: 'isKeyAgents',
      target: target.constructor,
      propertyName: property,
      options: { message: 'agents must be "all" or a non-empty array of agent ids', ...options },
      validator: {
        validate: (value: unknown) =>
          value === 'all' ||
          (Array.isArray(value) &&
            value.length > 0 &&
            value.length <= 1000 &&
            value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 80)),
      },
    });
}

export class CreateApiKeyDto {
  @IsString() @MinLength(1) @MaxLength(100) name: string;
  @IsKeyAgents() agents: 'all' | string[];
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsIn(PERMISSIONS as unknown as string[], {
    each: true,
    message: `permissions must each be one of ${PERMISSIONS.join(', ')}`,
  })
  permissions: Permission[];
  @IsString() @MaxLength(40) expiresAt: string;
}

/** Only `name` may change; the other fields are accepted here so the service can answer 422. */
export class PatchApiKeyDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @Allow() agents?: unknown;
  @Allow() permissions?: unknown;
  @Allow() expiresAt?: unknown;
}
