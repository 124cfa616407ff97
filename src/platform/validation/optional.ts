import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * The one convention for optional fields: optional means absent. An absent field skips its other
 * checks; `null` is refused ("x must not be null") instead of slipping past them as class-validator's
 * `@IsOptional()` lets it, into a decider and a NOT NULL column.
 */
export const Optional = () =>
  applyDecorators(
    ValidateIf((_, value) => value !== undefined),
    ValidateBy({
      name: 'isNotNull',
      validator: {
        validate: (value: unknown) => value !== null,
        defaultMessage: (args) => `${args?.property ?? 'field'} must not be null`,
      },
    }),
  );

/** For the few fields whose documentation gives `null` a meaning (e.g. an alert rule's `project_id`). */
export const OptionalOrNull = () => ValidateIf((_, value) => value !== undefined && value !== null);
