import { getMetadataStorage, type ValidationArguments } from 'class-validator';

type Check = (object: object, value: unknown) => boolean;
type Build = (value: Record<string, unknown>) => object | null;

interface Rules {
  /** ValidateIf: false skips the property's other rules */
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Check[];
}

/** Keys class-transformer and Nest's pipe treat apart (prototype pollution): such bodies take the full path. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const compiled = new WeakMap<object, Build | null>();

/**
 * The accepting half of the validation pipe, for a DTO of plain properties, compiled once per class
 * from the same class-validator metadata: when every property of a JSON body passes every rule of
 * its field, the DTO is built as class-transformer builds it (an instance of the class, JSON values
 * copied), without class-transformer's reflection or class-validator's error bookkeeping. Anything
 * else (a rule that fails, an unknown key, a rule of a kind it does not know) returns null and
 * takes the full pipe, so every refusal and its message is the pipe's own. Null for a class it
 * cannot compile (nested DTOs, `each`, groups, async rules).
 */
export function flatDtoBuilder(metatype: new () => object): Build | null {
  let build = compiled.get(metatype);
  if (build === undefined) {
    build = compile(metatype);
    compiled.set(metatype, build);
  }
  return build;
}

function compile(metatype: new () => object): Build | null {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(metatype, '', true, false);
  if (metadatas.length === 0) return null;
  const rules = new Map<string, Rules>();
  for (const metadata of metadatas) {
    if (metadata.each || metadata.always || (metadata.groups && metadata.groups.length > 0)) return null;
    let property = rules.get(metadata.propertyName);
    if (!property) {
      property = { conditions: [], checks: [] };
      rules.set(metadata.propertyName, property);
    }
    if (metadata.type === 'conditionalValidation') {
      property.conditions.push(metadata.constraints[0] as (object: object, value: unknown) => boolean);
    } else if (metadata.type === 'customValidation' && metadata.constraintCls) {
      const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
      if (constraints.length === 0 || constraints.some((c) => c.async)) return null;
      const propertyName = metadata.propertyName;
      const targetName = metatype.name;
      for (const constraint of constraints) {
        property.checks.push((object, value) => {
          const args: ValidationArguments = {
            targetName,
            property: propertyName,
            object,
            value,
            constraints: metadata.constraints,
          };
          // a promise (an async rule after all) is not a pass here: the full pipe decides
          return constraint.instance.validate(value, args) === true;
        });
      }
    } else {
      return null;
    }
  }
  const properties = [...rules];
  return (value) => {
    for (const key of Object.keys(value)) if (!rules.has(key)) return null;
    const dto = new metatype() as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      const copy = jsonCopy(value[key], 0);
      if (copy === INVALID) return null;
      dto[key] = copy;
    }
    for (const [name, property] of properties) {
      const field = dto[name];
      if (!property.conditions.every((condition) => condition(dto, field))) continue;
      for (const check of property.checks) if (!check(dto, field)) return null;
    }
    return dto;
  };
}

const INVALID = Symbol('not plain JSON');
/** As deep as the body-depth guard lets a body nest; deeper goes the full path. */
const MAX_DEPTH = 64;

/**
 * A JSON value copied as class-transformer copies an untyped property (plain objects and arrays
 * anew, primitives as they are); INVALID for anything a JSON body does not hold, or a key Nest's
 * pipe strips.
 */
function jsonCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? INVALID : value;
  }
  if (depth >= MAX_DEPTH) return INVALID;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return INVALID;
      const item = jsonCopy(value[i], depth + 1);
      if (item === INVALID) return INVALID;
      out[i] = item;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return INVALID;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) return INVALID;
    const item = jsonCopy((value as Record<string, unknown>)[key], depth + 1);
    if (item === INVALID) return INVALID;
    out[key] = item;
  }
  return out;
}
