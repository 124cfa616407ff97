/**
 * Runs a cited topic's actions (contract §6), purely: state in, outcome out; ids come from
 * `context.newId`. Every action run is one function event, in order. A bad action (unknown name,
 * missing argument, failing function) is a function error, never an exception, and later actions
 * still run, except that `handoff` and `end_conversation` end the agent's part: nothing after them
 * runs (or is recorded). Argument values go through `renderValue` (`$state.key`) before use, against
 * the state as earlier actions of the same run left it.
 *
 * `runActions` answers at once and refuses functions that answer later; `runActionsAsync` awaits
 * them (agent tools, contract §20). Both drive one generator, so the rules are written once.
 */
import { findFunction, type BuiltinFunction, type FunctionResult } from './functions';
import { readPath, renderValue } from './templating';

export interface ActionInput {
  name: string;
  args: Record<string, string>;
  /** Line in the topic's actions text, copied to the function event when given. */
  line?: number;
}

interface FunctionEvent {
  name: string;
  /** The arguments as rendered. */
  args: Record<string, string>;
  status: 'ok' | 'error';
  error?: string;
  /** What `call_function` returned, when it succeeded. */
  result?: Record<string, unknown>;
  line?: number;
}

interface Handoff {
  destination: string;
  reason: string;
  sharedId?: string;
  /** reason, destination, the listed state keys' values (null when unset) and shared_id when given. */
  data: Record<string, unknown>;
}

export interface ActionOutcome {
  /** The state after the run (the input object is never modified). */
  state: Record<string, unknown>;
  /** Each top-level state key the run changed, with its new value: `{...before, ...stateChanges}` is `state`. */
  stateChanges: Record<string, unknown>;
  metrics: Array<{ name: string; value: string }>;
  functionEvents: FunctionEvent[];
  handoff?: Handoff;
  /** True when `end_conversation` ran. */
  ended: boolean;
  awaitedEvents: Array<{ name: string; eventId: string }>;
  sms: Array<{ text: string }>;
  /** Function events with status 'error'. */
  functionErrors: number;
  /** The `fallback` text of a `call_function` that failed: the turn answers with it (contract §20). */
  fallback?: string;
}

export interface ActionContext {
  state: Record<string, unknown>;
  newId: () => string;
  /** Functions `call_function` may call; the built-ins by default. */
  functions?: { get(name: string): BuiltinFunction | undefined };
}

/** State keys set_state may not write: set by the platform (contract §6) or by await_external_event. */
const READ_ONLY_STATE_KEYS: ReadonlySet<string> = new Set([
  'conversation_id',
  'channel',
  'environment',
  'caller_number',
  'agent_number',
  'external_event_ids',
  'external_events',
  'functions',
]);

const EXTERNAL_EVENT_IDS_KEY = 'external_event_ids';

class ActionError extends Error {}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** A required argument: present and, after rendering, not empty. */
function required(args: Record<string, string>, key: string): string {
  if (!hasOwn(args, key)) throw new ActionError(`missing required argument "${key}"`);
  if (args[key] === '') throw new ActionError(`argument "${key}" is empty`);
  return args[key];
}

/** An argument that must be given but may be empty (`value=`). */
function present(args: Record<string, string>, key: string): string {
  if (!hasOwn(args, key)) throw new ActionError(`missing required argument "${key}"`);
  return args[key];
}

function optional(args: Record<string, string>, key: string): string | undefined {
  return hasOwn(args, key) ? args[key] : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `state` with `value` at dotted `path`, copying only the objects on the path. */
function setPath(state: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (rest.length === 0) return { ...state, [head]: value };
  const inner = hasOwn(state, head) ? state[head] : undefined;
  if (inner !== undefined && inner !== null && !isRecord(inner)) {
    throw new ActionError(`cannot set "${path.join('.')}": "${head}" is not an object`);
  }
  return { ...state, [head]: setPath(isRecord(inner) ? inner : {}, rest, value) };
}

const KEY_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*$/;

/** A dotted state key; `__proto__` is refused so no write can reach an object's prototype. */
function isKeyPath(key: string): boolean {
  return KEY_PATH.test(key) && !key.split('.').includes('__proto__');
}

/** Runs the actions; a function that answers later is a function error here (use runActionsAsync). */
export function runActions(actions: readonly ActionInput[], context: ActionContext): ActionOutcome {
  const run = steps(actions, context);
  let step = run.next();
  while (!step.done) {
    step.value.catch(() => undefined); // not awaited: its outcome is not wanted
    step = run.next({ ok: false, error: 'this function answers asynchronously and cannot run here' });
  }
  return step.value;
}

/** Runs the actions, awaiting functions that answer later (one at a time, in order). */
export async function runActionsAsync(actions: readonly ActionInput[], context: ActionContext): Promise<ActionOutcome> {
  const run = steps(actions, context);
  let step = run.next();
  while (!step.done) {
    let result: FunctionResult;
    try {
      result = await step.value;
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    step = run.next(result);
  }
  return step.value;
}

function* steps(
  actions: readonly ActionInput[],
  context: ActionContext,
): Generator<Promise<FunctionResult>, ActionOutcome, FunctionResult> {
  const functions = context.functions ?? { get: findFunction };
  let state: Record<string, unknown> = { ...context.state };
  const changedKeys = new Set<string>();
  const outcome: ActionOutcome = {
    state,
    stateChanges: {},
    metrics: [],
    functionEvents: [],
    ended: false,
    awaitedEvents: [],
    sms: [],
    functionErrors: 0,
  };
  const write = (path: string[], value: unknown) => {
    state = setPath(state, path, value);
    changedKeys.add(path[0]);
  };

  for (const action of actions) {
    const args: Record<string, string> = Object.fromEntries(
      Object.entries(action.args).map(([key, value]) => [key, renderValue(value, state)]),
    );
    const event: FunctionEvent = { name: action.name, args, status: 'ok' };
    if (action.line !== undefined) event.line = action.line;
    let stop = false;
    try {
      switch (action.name) {
        case 'handoff': {
          const destination = required(args, 'destination');
          const reason = optional(args, 'reason') ?? '';
          const sharedId = optional(args, 'shared_id');
          const data: Record<string, unknown> = {};
          for (const key of (optional(args, 'keys') ?? '').split(',')) {
            const k = key.trim();
            if (k === '') continue;
            if (!isKeyPath(k)) throw new ActionError(`invalid state key "${k}" in keys`);
            data[k] = readPath(state, k) ?? null;
          }
          data.reason = reason;
          data.destination = destination;
          if (sharedId !== undefined && sharedId !== '') data.shared_id = sharedId;
          outcome.handoff = {
            destination,
            reason,
            data,
            ...(sharedId !== undefined && sharedId !== '' ? { sharedId } : {}),
          };
          stop = true;
          break;
        }
        case 'end_conversation':
          outcome.ended = true;
          stop = true;
          break;
        case 'set_state': {
          const key = required(args, 'key');
          const value = present(args, 'value');
          if (!isKeyPath(key)) throw new ActionError(`invalid state key "${key}"`);
          const path = key.split('.');
          if (READ_ONLY_STATE_KEYS.has(path[0])) throw new ActionError(`state key "${path[0]}" is read-only`);
          write(path, value);
          break;
        }
        case 'log_metric':
          outcome.metrics.push({ name: required(args, 'name'), value: present(args, 'value') });
          break;
        case 'await_external_event': {
          const name = required(args, 'name');
          if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new ActionError(`invalid external event name "${name}"`);
          const eventId = context.newId();
          write([EXTERNAL_EVENT_IDS_KEY, name], eventId);
          outcome.awaitedEvents.push({ name, eventId });
          break;
        }
        case 'send_sms':
          outcome.sms.push({ text: required(args, 'text') });
          break;
        case 'call_function': {
          const name = required(args, 'name');
          const fn = functions.get(name);
          if (fn === undefined) throw new ActionError(`unknown function "${name}"`);
          // `fallback` is what the turn says when the call fails (below), not an argument of the function
          const fnArgs = Object.fromEntries(
            Object.entries(args).filter(([key]) => key !== 'name' && key !== 'fallback'),
          );
          const answer = fn(fnArgs, state);
          const result: FunctionResult = answer instanceof Promise ? yield answer : answer;
          if (!result.ok) throw new ActionError(result.error);
          event.result = result.result;
          if (result.stored) write(['functions', name], result.stored.value);
          break;
        }
        default:
          throw new ActionError(`unknown action "${action.name}"`);
      }
    } catch (error) {
      event.status = 'error';
      event.error = error instanceof Error ? error.message : String(error);
      const fallback = action.name === 'call_function' ? optional(args, 'fallback') : undefined;
      if (fallback !== undefined && fallback !== '') outcome.fallback ??= fallback;
      stop = false;
    }
    outcome.functionEvents.push(event);
    if (event.status === 'error') outcome.functionErrors++;
    if (stop) break;
  }

  outcome.state = state;
  for (const key of changedKeys) outcome.stateChanges[key] = state[key];
  return outcome;
}
