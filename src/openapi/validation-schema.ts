import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { nestedType } from '../platform/validation/nested-type';
import { nullMeans } from '../platform/validation/null-fields';
import type { JsonSchema } from './json-schema';

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) from the class-validator metadata the validation
 * pipe checks requests with, so the document's request schemas are the rules that run and cannot
 * drift from them. Unknown properties are refused by the pipe (forbidNonWhitelisted): hence
 * `additionalProperties: false`. A rule this module does not know adds nothing: the schema is then
 * looser than the validation, never stricter.
 */

/** Custom validators of this code base, by the name they register under, and what they accept. */
const CUSTOM_VALIDATORS: Record<string, JsonSchema> = {
  isKeyAgents: {
    oneOf: [
      { const: 'all' },
      {
        type: 'array',
        minItems: 1,
        maxItems: 1000,
        items: { type: 'string', minLength: 1, maxLength: 80 },
      },
    ],
  },
  isCallMetadata: { type: 'object', additionalProperties: { type: 'string' } },
};

/** Turns DTO classes into named schemas; nested DTOs become components of their own. */
export class ValidationSchemas {
  /** component name -> schema, for `components.schemas` */
  readonly components = new Map<string, JsonSchema>();
  private readonly names = new Map<Type, string>();

  /** A `$ref` to the class's component, creating it (and its nested classes') on first use. */
  refFor(dto: Type): JsonSchema {
    return { $ref: `#/components/schemas/${this.nameOf(dto)}` };
  }

  /** The class's own schema (not a reference), for expanding a query DTO into parameters. */
  schemaOf(dto: Type): JsonSchema {
    this.nameOf(dto);
    return this.components.get(this.names.get(dto)!)!;
  }

  private nameOf(dto: Type): string {
    const known = this.names.get(dto);
    if (known) return known;
    let name = dto.name || 'Anonymous';
    for (let n = 2; [...this.names.values()].includes(name); n++) name = `${dto.name}${n}`;
    this.names.set(dto, name);
    this.components.set(name, {}); // a placeholder, so a class that nests itself terminates
    this.components.set(name, this.build(dto));
    return name;
  }

  private build(dto: Type): JsonSchema {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const m of metadatas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [property, rules] of byProperty) {
      const conditional = rules.some((r) => r.type === 'conditionalValidation');
      // @Allow() alone checks nothing, an absent value included
      const checked = rules.some((r) => r.type !== 'whitelistValidation');
      properties[property] = this.propertySchema(dto, property, rules, nullMeans(dto, property));
      if (!conditional && checked) required.push(property);
    }
    const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    return schema;
  }

  private propertySchema(dto: Type, property: string, rules: ValidationMetadata[], nullable: boolean): JsonSchema {
    const value: JsonSchema = {}; // the property itself
    const each: JsonSchema = {}; // each item, for rules declared with { each: true }
    for (const rule of rules) {
      if (rule.type === 'nestedValidation') {
        const nested = nestedType(dto, property);
        if (nested) Object.assign(rule.each ? each : value, this.refFor(nested));
        continue;
      }
      if (rule.type !== 'customValidation' || !rule.name) continue;
      applyRule(rule.each ? each : value, rule.name, rule.constraints ?? []);
    }
    if (Object.keys(each).length > 0) {
      value.type ??= 'array';
      value.items = { ...(value.items as JsonSchema | undefined), ...each };
    }
    if (value.type === undefined && value.$ref === undefined && value.oneOf === undefined && value.enum === undefined)
      inferType(value, Reflect.getMetadata('design:type', dto.prototype, property));
    if (nullable) return allowNull(value);
    return value;
  }
}

function applyRule(schema: JsonSchema, name: string, constraints: unknown[]): void {
  const [first] = constraints;
  switch (name) {
    case 'isString':
      schema.type = 'string';
      return;
    case 'isBoolean':
      schema.type = 'boolean';
      return;
    case 'isInt':
      schema.type = 'integer';
      return;
    case 'isNumber':
      schema.type = 'number';
      return;
    case 'isObject':
      schema.type = 'object';
      return;
    case 'isArray':
      schema.type = 'array';
      return;
    case 'minLength':
      schema.type ??= 'string';
      schema.minLength = first as number;
      return;
    case 'maxLength':
      schema.type ??= 'string';
      schema.maxLength = first as number;
      return;
    case 'matches': {
      schema.type ??= 'string';
      const pattern = first instanceof RegExp ? first : new RegExp(String(first), constraints[1] as string);
      // JSON Schema patterns have no flags: a case-insensitive rule is described, not enforced
      if (pattern.flags.includes('i')) schema.description = `matches ${pattern.toString()}`;
      else schema.pattern = pattern.source;
      return;
    }
    case 'isIn':
      schema.enum = [...(first as unknown[])];
      return;
    case 'min':
      schema.minimum = first as number;
      return;
    case 'max':
      schema.maximum = first as number;
      return;
    case 'arrayMinSize':
      schema.type ??= 'array';
      schema.minItems = first as number;
      return;
    case 'arrayMaxSize':
      schema.type ??= 'array';
      schema.maxItems = first as number;
      return;
    case 'arrayUnique':
      schema.type ??= 'array';
      schema.uniqueItems = true;
      return;
    default:
      if (CUSTOM_VALIDATORS[name]) Object.assign(schema, CUSTOM_VALIDATORS[name]);
  }
}

function inferType(schema: JsonSchema, designType: unknown): void {
  if (designType === String) schema.type = 'string';
  else if (designType === Number) schema.type = 'number';
  else if (designType === Boolean) schema.type = 'boolean';
  else if (designType === Array) schema.type = 'array';
}

/** `null` is accepted too: the field's documentation gives it a meaning (OptionalOrNull). */
function allowNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (schema.enum) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}
