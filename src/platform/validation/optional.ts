import { applyDecorators } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import { NullMeans } from './null-fields';

/**
 * The one convention for optional fields: optional means absent. An absent field skips its other
 * checks; `null` is refused ("x must not be null") by the validation pipe's rule for every field
 * (null-fields.ts), not here, so a field declared without this decorator is refused too.
 */
export const Optional = () => ValidateIf((_, value) => value !== undefined);

/**
 * For the few fields whose documentation gives `null` a meaning (e.g. an alert rule's `project_id`):
 * absent or null skips the other checks, and the pipe's null rule lets this field through.
 */
export const OptionalOrNull = () =>
  applyDecorators(
    ValidateIf((_, value) => value !== undefined && value !== null),
    NullMeans(),
  );
