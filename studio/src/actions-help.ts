import { parseActions } from '../../src/runtime/actions/parse-actions';

/** The action names the runtime knows (contract §6); any other name runs as a function error. */
export const KNOWN_ACTIONS: Record<string, string> = {
  handoff: 'handoff destination=… reason=… shared_id=…',
  end_conversation: 'end_conversation',
  set_state: 'set_state key=… value=…',
  log_metric: 'log_metric name=… value=…',
  await_external_event: 'await_external_event name=…',
  send_sms: 'send_sms text="…"',
  call_function: 'call_function name=…',
};

export interface ActionProblem {
  line: number;
  message: string;
  severity: 'error' | 'warning';
}

/**
 * Checks a topic's actions text with the runtime's own parser (bundled into Studio), so what is
 * flagged here is exactly what the runtime would skip; an unknown name is only a warning, because
 * the runtime still runs it (as a failing function).
 */
export function checkActions(text: string): ActionProblem[] {
  const { actions, errors } = parseActions(text);
  const problems: ActionProblem[] = errors.map((e) => ({ ...e, severity: 'error' }));
  for (const action of actions) {
    if (!(action.name in KNOWN_ACTIONS))
      problems.push({
        line: action.line,
        severity: 'warning',
        message: `unknown action "${action.name}": it will count as a function error`,
      });
  }
  return problems.sort((a, b) => a.line - b.line);
}
