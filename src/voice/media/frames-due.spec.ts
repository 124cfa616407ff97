import { FRAME_MS, framesDue } from './rtp-session';

/** Sends every slot once, ticking at the times given: how many frames went out by the end, and when the next is due. */
function run(start: number, tickTimes: number[]): { sent: number; nextTick: number } {
  let slot = start;
  let sent = 0;
  for (const now of tickTimes) {
    const { frames, nextTick } = framesDue(now, slot);
    sent += frames;
    slot = nextTick;
  }
  return { sent, nextTick: slot };
}

describe('framesDue: the RTP sender keeps to the clock', () => {
  it('on time: one frame a tick, the next slot 20 ms on', () => {
    expect(framesDue(1000, 1000)).toEqual({ frames: 1, nextTick: 1000 + FRAME_MS });
    // a timer that fires a little early still sends its one frame
    expect(framesDue(999, 1000)).toEqual({ frames: 1, nextTick: 1000 + FRAME_MS });
  });

  it('after a short stall: the late slots at once, and then back on schedule (no repeated catch-up)', () => {
    // ticks due at 0, 20, 40, ...; the one for 0 fires at 60: slots 0, 20, 40 and 60 are due
    expect(framesDue(60, 0)).toEqual({ frames: 4, nextTick: 80 });
    // the tick that follows at 80 sends one, not another burst (the bug: it sent four again and again)
    expect(run(0, [60, 80, 100])).toEqual({ sent: 6, nextTick: 120 });
  });

  it('after a long stall: at most 5 late frames, the slots beyond are skipped', () => {
    expect(framesDue(400, 0)).toEqual({ frames: 6, nextTick: 420 });
  });

  it('never more frames than slots whose time has come, however the ticks fall', () => {
    // a second of ticks, each up to 90 ms late, fired back to back after stalls
    const ticks = [90, 95, 100, 230, 231, 232, 400, 520, 521, 700, 790, 800, 990, 1000];
    const { sent } = run(0, ticks);
    expect(sent).toBeLessThanOrEqual(Math.floor(1000 / FRAME_MS) + 1);
  });
});
