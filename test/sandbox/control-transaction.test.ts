/**
 * A control verb as a transaction: kept, its changes stay and its sends and scheduled tasks happen; refused
 * (by the judge or by a throw), every object it changed is back as it was — the same objects, so a task
 * already scheduled still holds them — and nothing it would have sent, scheduled or announced happens.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery, DueTask, PlatformEvent, SandboxEnvironment } from '../../src/sandbox/contract.js';
import { inTransaction } from '../../src/sandbox/control-transaction.js';

/** An environment that records what reaches it. */
function recordingEnvironment() {
  const sent: Delivery[] = [];
  const scheduled: number[] = [];
  const tasks: DueTask[] = [];
  const announced: PlatformEvent[] = [];
  const env = {
    clock: {
      now: () => new Date(0),
      nowMs: () => 0,
      at: (atMs: number) => {
        scheduled.push(atMs);
        return () => scheduled.splice(scheduled.indexOf(atMs), 1);
      },
    },
    webhooks: {
      send: (delivery: Delivery) => {
        sent.push(delivery);
        return `d${sent.length}`;
      },
      disabled: () => false,
      enable: () => {},
      resend: () => false,
      log: () => [],
    },
    random: { seed: 's', next: () => 0, text: () => '', uuid: () => '', integer: () => 0 },
    tokens: { issue: () => '', verify: () => 'unknown' as const, checkCredential: () => false, scopesOf: () => undefined },
    stateOf: () => undefined,
    schedule: (task: DueTask) => void tasks.push(task),
    announce: (event: PlatformEvent) => void announced.push(event),
  } satisfies SandboxEnvironment;
  return { env, sent, scheduled, tasks, announced };
}

const delivery: Delivery = { subscription: 's', url: 'http://127.0.0.1:1/', method: 'POST', headers: {}, body: {}, label: 'pix' };
const task: DueTask = { document: 'pix', kind: 'settleRefund', atMs: 5000, args: { e2eid: 'E1', id: 'D1' } };
const event: PlatformEvent = {
  kind: 'pix.refund',
  status: 'EM_PROCESSAMENTO',
  endToEndId: 'E1',
  returnId: 'D1',
  cents: 100,
  receiver: { ispb: '99999010', document: '11222333000181', name: 'Loja' },
  description: null,
  at: '2030-01-01T00:00:00.000Z',
};

/** A verb that changes a nested record, a list and the root, sends a webhook and schedules a task. */
function changeEverything(state: { charges: Record<string, { status: string; pix?: string[] }>; received: string[]; count?: number }) {
  return (env: SandboxEnvironment) => {
    state.charges.a!.status = 'CONCLUIDA';
    state.charges.a!.pix = ['E1'];
    state.charges.b = { status: 'ATIVA' };
    state.received.push('E1');
    state.count = 1;
    env.webhooks.send(delivery);
    env.clock.at(5000, () => {});
    env.schedule(task);
    env.announce(event);
    return { done: true };
  };
}

const freshState = (): Parameters<typeof changeEverything>[0] => ({ charges: { a: { status: 'ATIVA' } }, received: [] });

describe('a control verb runs as a transaction', () => {
  it.each([
    { given: 'a judge that refuses', judge: () => 'refused', throws: false },
    { given: 'a verb that throws', judge: () => undefined, throws: true },
  ])('$given: every object is back, the same object, and nothing is sent or scheduled', async ({ judge, throws }) => {
    const state = freshState();
    const charge = state.charges.a!;
    const received = state.received;
    const before = structuredClone(state);
    const { env, sent, scheduled, tasks, announced } = recordingEnvironment();
    const run = changeEverything(state);
    const outcome = inTransaction(
      [state],
      env,
      (transactional) => {
        const answer = run(transactional);
        if (throws) throw new Error('refused inside');
        return answer;
      },
      judge,
    );
    if (throws) await expect(outcome).rejects.toThrow('refused inside');
    else expect(await outcome).toEqual({ refused: 'refused' });
    expect(state).toEqual(before);
    expect(state.charges.a).toBe(charge);
    expect(state.received).toBe(received);
    expect(Object.keys(state)).toEqual(['charges', 'received']);
    expect(Object.keys(charge)).toEqual(['status']);
    expect(sent).toEqual([]);
    expect(scheduled).toEqual([]);
    expect(tasks).toEqual([]);
    expect(announced).toEqual([]);
  });

  it('kept: the changes stay, the send happens and the task is scheduled, after the verb', async () => {
    const state = freshState();
    const { env, sent, scheduled, tasks, announced } = recordingEnvironment();
    const outcome = await inTransaction([state], env, changeEverything(state), () => undefined);
    expect(outcome).toEqual({ kept: { done: true } });
    expect(state).toMatchObject({
      charges: { a: { status: 'CONCLUIDA', pix: ['E1'] }, b: { status: 'ATIVA' } },
      received: ['E1'],
      count: 1,
    });
    expect(sent).toEqual([delivery]);
    expect(scheduled).toEqual([5000]);
    expect(tasks).toEqual([task]);
    expect(announced).toEqual([event]);
  });

  it('a task the verb scheduled and cancelled is never scheduled; after the outcome the environment passes calls through', async () => {
    const { env, sent, scheduled } = recordingEnvironment();
    let kept: SandboxEnvironment | undefined;
    await inTransaction(
      [{}],
      env,
      (transactional) => {
        kept = transactional;
        const cancel = transactional.clock.at(1000, () => {});
        cancel();
        transactional.clock.at(2000, () => {});
      },
      () => undefined,
    );
    expect(scheduled).toEqual([2000]);
    kept!.webhooks.send(delivery);
    expect(sent).toEqual([delivery]);
  });
});
