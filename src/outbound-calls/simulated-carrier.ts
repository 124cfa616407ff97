import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { DueTimer, TimerHandler, Timers } from '../process-managers/timers';
import type { CallProgress, Carrier } from './carrier.port';
import type { QueuedCall } from './outbound-call.events';

/** Contract §10's test numbers. */
const NEVER_ANSWERS = '+15005550001';
const ALWAYS_BUSY = '+15005550002';

/** The simulated network's timings, in seconds of the platform clock. */
const SIMULATOR_TIMINGS = {
  /** queued → calling: the platform picks the call up */
  pickUp: 1,
  /** calling → answered: the phone rings this long */
  answerAfter: 3,
  /** calling → busy signal */
  busyAfter: 2,
  /** answered → the callee hangs up, having heard the greeting */
  listen: 5,
} as const;

type Step = 'dial' | 'answer' | 'busy' | 'no-answer' | 'hang-up';
interface StepPayload {
  callSid: string;
  step: Step;
  /** the dialled number: it decides how the simulated callee behaves */
  to: string;
}

const OWNER = 'outbound-calls:simulator';

/**
 * The embedded carrier (contract §10): a network that exists only on the platform clock. Each step
 * of a call is a durable timer, so calls go on across restarts and a test clock moves them; each
 * step's report is keyed by its timer id, so a timer that fires twice reports once.
 */
@RunsBehindTheLog()
export class SimulatedCarrier implements Carrier, BehindTheLogWork {
  readonly name = 'simulator' as const;
  readonly timerHandlers: Record<string, TimerHandler> = {
    [OWNER]: (timer: DueTimer<StepPayload>) => this.step(timer),
  };

  constructor(
    private readonly timers: Timers,
    private readonly progress: CallProgress,
    private readonly ringTimeoutS: number,
  ) {}

  async place(call: QueuedCall): Promise<void> {
    await this.after(
      { callSid: call.callSid, step: 'dial', to: call.toNumber },
      Date.parse(call.queuedAt),
      SIMULATOR_TIMINGS.pickUp,
    );
  }

  async stop(): Promise<void> {}

  private async step({ id, dueAt, payload }: DueTimer<StepPayload>): Promise<void> {
    const { callSid, step, to } = payload;
    const next = (then: Step, seconds: number) => this.after({ callSid, step: then, to }, Date.parse(dueAt), seconds);
    switch (step) {
      case 'dial': {
        await this.progress.dialing(callSid, { key: id, at: dueAt });
        await this.progress.ringing(callSid, { key: `${id}:ring`, at: dueAt });
        if (to === NEVER_ANSWERS) await next('no-answer', this.ringTimeoutS);
        else if (to === ALWAYS_BUSY) await next('busy', SIMULATOR_TIMINGS.busyAfter);
        else await next('answer', SIMULATOR_TIMINGS.answerAfter);
        return;
      }
      case 'answer':
        await this.progress.answered(callSid, { key: id, at: dueAt });
        await next('hang-up', SIMULATOR_TIMINGS.listen);
        return;
      case 'hang-up':
        return this.progress.ended(
          callSid,
          { reason: 'error', hungUpBy: 'callee', sipStatus: null },
          { key: id, at: dueAt },
        );
      case 'busy':
        return this.progress.ended(
          callSid,
          { reason: 'busy', hungUpBy: null, sipStatus: null },
          { key: id, at: dueAt },
        );
      case 'no-answer':
        return this.progress.ended(
          callSid,
          { reason: 'no-answer', hungUpBy: null, sipStatus: null },
          { key: id, at: dueAt },
        );
    }
  }

  /**
   * Each step is due a fixed time after the one before (not after whenever it ran), so a call's
   * timeline on the platform clock is the same however late a process picked it up.
   */
  private async after(payload: StepPayload, fromMs: number, seconds: number): Promise<void> {
    const dueAt = new Date(fromMs + seconds * 1000);
    await this.timers.schedule({ id: `${OWNER}:${payload.callSid}:${payload.step}`, owner: OWNER, dueAt, payload });
  }
}
