/** The sandbox clock: time from real time, speed and advance; tasks in time order, on advance and on their own. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxClock, maxTasksPerRun, type ControlledSandboxClock } from '../../src/sandbox/clock.js';

const start = Date.UTC(2026, 0, 5, 12, 0, 0);

/** A clock on a real time the test moves by hand. */
function manualClock(speed = 1, onTaskError?: (error: unknown) => void) {
  let real = 1_000_000;
  const clock = createSandboxClock({ startMs: start, speed, realNow: () => real, ...(onTaskError ? { onTaskError } : {}) });
  clocks.push(clock);
  return { clock, passRealMs: (ms: number) => void (real += ms) };
}

const clocks: ControlledSandboxClock[] = [];
afterEach(() => {
  for (const clock of clocks.splice(0)) clock.stop();
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox time', () => {
  it.each([
    { given: { speed: 1, realMs: 0, advanceMs: 0 }, want: start },
    { given: { speed: 1, realMs: 1500, advanceMs: 0 }, want: start + 1500 },
    { given: { speed: 60, realMs: 1000, advanceMs: 0 }, want: start + 60_000 },
    { given: { speed: 0, realMs: 10_000, advanceMs: 0 }, want: start },
    { given: { speed: 0, realMs: 10_000, advanceMs: 120_000 }, want: start + 120_000 },
    { given: { speed: 2, realMs: 500, advanceMs: 3_600_000 }, want: start + 1000 + 3_600_000 },
  ])('start + real elapsed × speed + advanced: $given', ({ given, want }) => {
    const { clock, passRealMs } = manualClock(given.speed);
    passRealMs(given.realMs);
    clock.advance(given.advanceMs);
    expect(clock.nowMs()).toBe(want);
    expect(clock.now().getTime()).toBe(want);
  });

  it('starts at the real time when no start is given', () => {
    const clock = createSandboxClock({ realNow: () => 42_000 });
    clocks.push(clock);
    expect(clock.nowMs()).toBe(42_000);
  });

  it('keeps the time already passed when the speed changes', () => {
    const { clock, passRealMs } = manualClock(1);
    passRealMs(1000);
    clock.setSpeed(60);
    passRealMs(1000);
    expect(clock.nowMs()).toBe(start + 1000 + 60_000);
    clock.setSpeed(0);
    passRealMs(5000);
    expect(clock.nowMs()).toBe(start + 61_000);
  });

  it.each([
    { given: 'advance(-1)', act: (clock: ControlledSandboxClock) => clock.advance(-1) },
    { given: 'advance(NaN)', act: (clock: ControlledSandboxClock) => clock.advance(Number.NaN) },
    { given: 'setSpeed(-2)', act: (clock: ControlledSandboxClock) => clock.setSpeed(-2) },
    { given: 'at(Infinity)', act: (clock: ControlledSandboxClock) => clock.at(Number.POSITIVE_INFINITY, () => undefined) },
  ])('refuses $given with a RangeError', ({ act }) => {
    expect(() => act(manualClock().clock)).toThrow(RangeError);
  });
});

describe('tasks on advance', () => {
  it('runs the due tasks in time order, same-time tasks in the order scheduled, each seeing its own time', () => {
    const { clock } = manualClock(0);
    const ran: string[] = [];
    const seen = (name: string) => () => ran.push(`${name}@${clock.nowMs() - start}`);
    clock.at(start + 300, seen('c'));
    clock.at(start + 100, seen('a'));
    clock.at(start + 200, seen('b1'));
    clock.at(start + 200, seen('b2'));
    clock.at(start + 900, seen('late'));
    clock.advance(500);
    expect(ran).toEqual(['a@100', 'b1@200', 'b2@200', 'c@300']);
    expect(clock.nowMs()).toBe(start + 500);
    expect(clock.pending()).toBe(1);
  });

  it('runs a task scheduled by a running task when it is due within the advance, not one beyond it', () => {
    const { clock } = manualClock(0);
    const ran: number[] = [];
    const every100 = () => {
      ran.push(clock.nowMs() - start);
      clock.at(clock.nowMs() + 100, every100);
    };
    clock.at(start + 100, every100);
    clock.advance(450);
    expect(ran).toEqual([100, 200, 300, 400]);
    expect(clock.pending()).toBe(1);
  });

  it(`stops after ${maxTasksPerRun} tasks in one advance when a task keeps rescheduling itself at a due time`, () => {
    const errors: unknown[] = [];
    const { clock } = manualClock(0, (error) => errors.push(error));
    let runs = 0;
    const forever = () => {
      runs += 1;
      clock.at(clock.nowMs(), forever);
    };
    clock.at(start, forever);
    clock.advance(0);
    expect(runs).toBe(maxTasksPerRun);
    expect(String(errors[0])).toContain(`more than ${maxTasksPerRun} tasks`);
    expect(clock.pending()).toBe(1);
  });

  it('keeps running the other tasks when one throws, and reports the error', () => {
    const errors: unknown[] = [];
    const { clock } = manualClock(0, (error) => errors.push(error));
    const ran: string[] = [];
    clock.at(start + 1, () => ran.push('before'));
    clock.at(start + 2, () => {
      throw new Error('receiver exploded');
    });
    clock.at(start + 3, () => ran.push('after'));
    clock.advance(10);
    expect(ran).toEqual(['before', 'after']);
    expect(errors).toEqual([new Error('receiver exploded')]);
  });

  it('reports a failing task on one console line by default', () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createSandboxClock({ startMs: start, speed: 0 });
    clocks.push(clock);
    clock.at(start, () => {
      throw new TypeError('first line\nsecond line');
    });
    clock.advance(0);
    expect(printed.mock.calls).toEqual([['sandbox clock: a task failed: TypeError: first line']]);
  });

  it('does not run a cancelled task; cancelling twice is harmless', () => {
    const { clock } = manualClock(0);
    const ran: string[] = [];
    const cancel = clock.at(start + 10, () => ran.push('cancelled'));
    clock.at(start + 20, () => ran.push('kept'));
    cancel();
    cancel();
    clock.advance(100);
    expect(ran).toEqual(['kept']);
    expect(clock.pending()).toBe(0);
  });
});

describe('tasks on their own (the real timer)', () => {
  it('runs a task when real time times the speed reaches it', async () => {
    const clock = createSandboxClock({ speed: 10_000 });
    clocks.push(clock);
    const due = clock.nowMs() + 60_000;
    // 60 sandbox seconds at 10 000× are 6 real milliseconds.
    const ranAt = await new Promise<number>((resolve) => clock.at(due, () => resolve(clock.nowMs())));
    expect(ranAt).toBeGreaterThanOrEqual(due);
  });

  it('recomputes its timer when the speed changes', async () => {
    const clock = createSandboxClock({ speed: 0.001 });
    clocks.push(clock);
    let ran = false;
    clock.at(clock.nowMs() + 60_000, () => {
      ran = true;
    });
    await sleep(20);
    expect(ran).toBe(false); // 60 s at 0.001× would be 17 real hours
    clock.setSpeed(1_000_000);
    for (let waited = 0; !ran && waited < 100; waited += 1) await sleep(10);
    expect(ran).toBe(true);
  });

  it('runs a task already due on the next turn, never inside `at`', async () => {
    const { clock } = manualClock(0);
    const ran: string[] = [];
    clock.at(start - 1000, () => ran.push('past'));
    expect(ran).toEqual([]);
    for (let waited = 0; ran.length === 0 && waited < 100; waited += 1) await sleep(5);
    expect(ran).toEqual(['past']);
  });

  it('after stop(), runs tasks only through advance', async () => {
    const { clock } = manualClock(0);
    const ran: string[] = [];
    clock.stop();
    clock.at(start, () => ran.push('due'));
    await sleep(30);
    expect(ran).toEqual([]);
    clock.advance(0);
    expect(ran).toEqual(['due']);
  });
});
