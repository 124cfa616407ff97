import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { nestedType } from './nested-type';

/**
 * The one rule for `null` in a request body (docs/input-rules.md): no field of any DTO, nested DTOs
 * and arrays of them included, takes `null` unless its class marks it with `@OptionalOrNull()`
 * (the few fields whose documentation gives null a meaning). The validation pipe applies it to every
 * body before anything else checks it, so a field added later is covered without a decorator of its
 * own, whatever it is declared with (`@Allow()`, class-validator's `@IsOptional()`, none at all).
 */

const NULL_MEANS = Symbol('parley:null-means');

/** Marks a property whose documented meaning includes `null` (see OptionalOrNull). */
export const NullMeans = (): PropertyDecorator => (target, property) =>
  Reflect.defineMetadata(NULL_MEANS, true, target, property);

/** Whether the class (or a class it extends) marks the property as taking `null`. */
export const nullMeans = (dto: Type, property: string): boolean =>
  Reflect.getMetadata(NULL_MEANS, dto.prototype as object, property) === true;

interface Field {
  nullMeans: boolean;
  nested?: Type;
}

const plans = new WeakMap<Type, Map<string, Field>>();

/** Each property the class declares a rule for: whether it takes null, and the class it nests. */
export function planOf(dto: Type): Map<string, Field> {
  let plan = plans.get(dto);
  if (!plan) {
    plan = new Map();
    for (const { propertyName } of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
      if (!plan.has(propertyName))
        plan.set(propertyName, { nullMeans: nullMeans(dto, propertyName), nested: nestedType(dto, propertyName) });
    }
    plans.set(dto, plan);
  }
  return plan;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Row = { field: string; message: string };

/**
 * Every `null` the body holds where its DTO does not take one, as `{field: "a.b.0.c", message}`
 * rows. Keys the class does not declare are left to the whitelist, which names them as extra.
 * Follows nested DTOs only, so the walk is as deep as the classes nest (and the body-depth guard
 * bounds a class that nests itself).
 */
export function nullFields(dto: Type, body: Record<string, unknown>, parent = '', rows: Row[] = []): Row[] {
  const plan = planOf(dto);
  for (const key in body) {
    const rule = plan.get(key);
    if (!rule || !Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (value === null) {
      if (!rule.nullMeans) refuse(rows, parent ? `${parent}.${key}` : key);
    } else if (rule.nested && typeof value === 'object') {
      const field = parent ? `${parent}.${key}` : key;
      if (!Array.isArray(value)) nullFields(rule.nested, value as Record<string, unknown>, field, rows);
      else
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === null) refuse(rows, `${field}.${i}`);
          else if (isObject(item)) nullFields(rule.nested, item, `${field}.${i}`, rows);
        }
    }
  }
  return rows;
}

const refuse = (rows: Row[], field: string) => rows.push({ field, message: `${field} must not be null` });
