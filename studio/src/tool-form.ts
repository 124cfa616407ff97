import type { TestExpectation, TestTurn } from './api/types';

/**
 * Pure parsing for the Tools and Tests tabs: what a person types becomes the body the API takes,
 * or a sentence saying why not, so the form refuses before the request rather than after.
 */
export type Parsed<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

/** A tool's `parameters`: a JSON object (the API judges the schema itself). */
export function parseParameters(text: string): Parsed<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'must be a JSON object, such as {"type": "object", "properties": {}}' };
  }
  return { value: value as Record<string, unknown> };
}

/** Headers, one `Name: value` a line; blank lines skipped. */
export function parseHeaders(text: string): Parsed<Record<string, string>> {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return { error: `line ${i + 1}: expected Name: value` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { value: headers };
}

/** One turn as the form holds it: every field a string or a boolean. */
export interface TurnRow {
  user: string;
  topic: string;
  contains: string;
  notContains: string;
  actions: string;
  handoff: boolean;
  outOfDomain: boolean;
  endConversation: boolean;
}

export const emptyTurn = (): TurnRow => ({
  user: '',
  topic: '',
  contains: '',
  notContains: '',
  actions: '',
  handoff: false,
  outOfDomain: false,
  endConversation: false,
});

export function turnToRow(turn: TestTurn): TurnRow {
  const e = turn.expect ?? {};
  return {
    user: turn.user,
    topic: e.topic ?? '',
    contains: e.contains ?? '',
    notContains: e.not_contains ?? '',
    actions: (e.actions ?? []).join(', '),
    handoff: e.handoff === true,
    outOfDomain: e.out_of_domain === true,
    endConversation: e.end_conversation === true,
  };
}

/** The API's turn: only the expectations filled in; a checkbox left clear expects nothing. */
export function rowToTurn(row: TurnRow): TestTurn {
  const expect: TestExpectation = {};
  if (row.topic.trim()) expect.topic = row.topic.trim();
  if (row.contains.trim()) expect.contains = row.contains.trim();
  if (row.notContains.trim()) expect.not_contains = row.notContains.trim();
  const actions = row.actions
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (actions.length) expect.actions = actions;
  if (row.handoff) expect.handoff = true;
  if (row.outOfDomain) expect.out_of_domain = true;
  if (row.endConversation) expect.end_conversation = true;
  return Object.keys(expect).length ? { user: row.user, expect } : { user: row.user };
}
