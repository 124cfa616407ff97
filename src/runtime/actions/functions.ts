/**
 * Built-in functions `call_function name=...` can call. A function is pure: it gets the rendered
 * arguments (without `name`) and a read-only view of conversation state, and returns a result or an
 * error. It must not throw; if one does, the runner records a function error anyway.
 */

export type FunctionResult =
  /** `stored`: the answer to keep in state under `functions.<name>` (agent tools, contract §20) */
  { ok: true; result: Record<string, unknown>; stored?: { value: unknown } } | { ok: false; error: string };

/** A built-in answers at once; an agent tool (src/runtime/tools) answers later, over the network. */
export type BuiltinFunction = (
  args: Readonly<Record<string, string>>,
  state: Readonly<Record<string, unknown>>,
) => FunctionResult | Promise<FunctionResult>;

const BUILTIN_FUNCTIONS: ReadonlyMap<string, BuiltinFunction> = new Map<string, BuiltinFunction>([
  /** Returns its arguments: a harmless function to try the plumbing with. */
  ['echo', (args) => ({ ok: true, result: { ...args } })],
  /** Always fails: for testing how failures are reported. */
  [
    'fail',
    (args) => ({
      ok: false,
      error: args.message !== undefined && args.message !== '' ? args.message : 'fail: this function always fails',
    }),
  ],
]);

export function findFunction(name: string): BuiltinFunction | undefined {
  return BUILTIN_FUNCTIONS.get(name);
}
