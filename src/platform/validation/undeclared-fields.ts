import type { Type } from '@nestjs/common';
import { planOf } from './null-fields';

type Row = { field: string; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every key the body holds that its DTO does not declare, nested DTOs and arrays of them included,
 * worded as the whitelist words them ("property a.b should not exist"). The pipe asks this before
 * class-transformer copies the body and Nest walks it: a megabyte of keys no route takes is
 * refused at the cost of one look per key, not of copying it all first (bench/README.md, "edge").
 */
export function undeclaredFields(dto: Type, body: Record<string, unknown>, parent = '', rows: Row[] = []): Row[] {
  const plan = planOf(dto);
  for (const key in body) {
    if (!Object.hasOwn(body, key)) continue;
    const field = parent ? `${parent}.${key}` : key;
    const rule = plan.get(key);
    if (!rule) {
      rows.push({ field, message: `property ${field} should not exist` });
      continue;
    }
    const value = body[key];
    if (!rule.nested || typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) undeclaredFields(rule.nested, value as Record<string, unknown>, field, rows);
    else
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (isObject(item)) undeclaredFields(rule.nested, item, `${field}.${i}`, rows);
      }
  }
  return rows;
}
