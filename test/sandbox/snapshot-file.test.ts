/**
 * The pieces a restart relies on, alone: a snapshot file that is not one is refused in one line naming the
 * member and what to do; the agenda hands each task to its runner at its time, keeps what is pending as data
 * and drops everything on clear; the strict sandbox's event judge finds what an event adds to or breaks in
 * its schema, and leaves alone what is no declared event.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { createAgenda } from '../../src/sandbox/agenda.js';
import { createSandboxClock } from '../../src/sandbox/clock.js';
import type { Delivery, DueTask } from '../../src/sandbox/contract.js';
import { eventJudge } from '../../src/sandbox/event-judge.js';
import { readSnapshot } from '../../src/sandbox/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'contrato-snapshot-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readSnapshot', () => {
  it.each([
    { given: 'text that is not JSON', text: '{', want: /not JSON .*remove the file/ },
    { given: 'a list', text: '[]', want: /a snapshot is a JSON object/ },
    { given: 'states that are no object', text: '{"states":[]}', want: /states must be an object/ },
    {
      given: 'a task without a kind',
      text: '{"agenda":[{"document":"pix","atMs":1,"args":{}}]}',
      want: /agenda\/0 needs a document and a kind/,
    },
    {
      given: 'a task at no time',
      text: '{"agenda":[{"document":"pix","kind":"k","atMs":"soon","args":{}}]}',
      want: /agenda\/0 needs atMs/,
    },
    { given: 'webhooks without lists', text: '{"webhooks":{}}', want: /webhooks must hold deliveries and subscriptions/ },
    { given: 'a clock lead that is no number', text: '{"clockLeadMs":"1"}', want: /clockLeadMs must be a finite number/ },
  ])('$given is refused in one line', ({ text, want }) => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, text);
    expect(() => readSnapshot(file, 'seed')).toThrow(want);
  });

  it('no file is no snapshot; a file of an older sandbox (states only) starts generation 0 on the given seed', () => {
    expect(readSnapshot(join(dir, 'absent.json'), 'seed')).toBeUndefined();
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify({ states: { pix: { charges: {} } } }));
    expect(readSnapshot(file, 'seed')).toEqual({
      seed: 'seed',
      generation: 0,
      clockLeadMs: 0,
      states: { pix: { charges: {} } },
      agenda: [],
      webhooks: undefined,
    });
  });
});

describe('the agenda', () => {
  it('runs each task at its time with its arguments, lists what is pending in time order, and clears', () => {
    const clock = createSandboxClock({ speed: 0, startMs: 0 });
    clock.stop();
    const ran: DueTask[] = [];
    const agenda = createAgenda(clock, (task) => ran.push(task));
    const args = { source: 'ted:1' };
    agenda.schedule({ document: 'accounts', kind: 'liquidate', atMs: 2000, args });
    agenda.schedule({ document: 'pix', kind: 'settleRefund', atMs: 1000, args: { e2eid: 'E1', id: 'd1' } });
    args.source = 'changed after scheduling';
    expect(agenda.pending().map((task) => task.atMs)).toEqual([1000, 2000]);
    clock.advance(1500);
    expect(ran).toEqual([{ document: 'pix', kind: 'settleRefund', atMs: 1000, args: { e2eid: 'E1', id: 'd1' } }]);
    expect(agenda.pending()).toEqual([{ document: 'accounts', kind: 'liquidate', atMs: 2000, args: { source: 'ted:1' } }]);
    agenda.clear();
    clock.advance(10_000);
    expect([ran.length, agenda.pending()]).toEqual([1, []]);
  });
});

describe('the event judge of the strict sandbox', () => {
  const judge = eventJudge(JSON.parse(readFileSync(bundledSpecPath('accounts'), 'utf8')) as Record<string, unknown>);
  const delivery = (body: unknown): Delivery => ({
    subscription: 's',
    url: 'http://127.0.0.1:1/',
    method: 'POST',
    headers: {},
    body,
    label: 'x',
  });
  it.each([
    { given: 'a valid RECEIVE', body: { type: 'RECEIVE', data: { id: 7, payment: { amount: '1.00', currency: 'BRL' } } }, want: [] },
    {
      given: 'a RECEIVE with an amount as a number',
      body: { type: 'RECEIVE', data: { id: 7, payment: { amount: 1 } } },
      want: [expect.stringMatching(/^event RECEIVE: \/data\/payment\/amount /)],
    },
    {
      given: 'an INFRACTION without its id',
      body: { type: 'INFRACTION', data: { status: 'OPEN' } },
      want: [expect.stringMatching(/^event INFRACTION: \/data/)],
    },
    { given: 'a Pix notification (no type)', body: { pix: [] }, want: [] },
    { given: 'a type no document declares', body: { type: 'pix.other' }, want: [] },
  ])('$given', ({ body, want }) => {
    expect(judge(delivery(body))).toEqual(want);
  });
});
