/**
 * The seeds of the Pix and messages sandboxes name what the spec's examples name (test/docs/samples.test.ts
 * runs every sample against them), so they must stay what the API Pix standard and section 2.12 allow: each
 * seeded id in its format, each Pix key one the receiving user can charge, each seeded message valid under its
 * schema, and a fresh state the same whatever the seed.
 */
import { describe, expect, it } from 'vitest';
import { checkEndToEndId, checkIdRec, checkPixKey, checkTxid } from '../../src/formats/pix.js';
import type { FormatResult } from '../../src/formats/result.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { replies } from '../../src/sandbox/messages/queue.js';
import { seededMessages } from '../../src/sandbox/messages/seed.js';
import type { MessagesState } from '../../src/sandbox/messages/state.js';
import { schemaIssues } from '../../src/sandbox/messages/state.js';
import { pixSeed } from '../../src/sandbox/pix/seed.js';
import type { PixState } from '../../src/sandbox/pix/state.js';
import { startSandbox } from '../../src/sandbox/server.js';

const formats: readonly [string, string, (value: string) => FormatResult][] = [
  ['receivedPix', pixSeed.receivedPix, checkEndToEndId],
  ['cob.txid', pixSeed.cob.txid, checkTxid],
  ['cobv.txid', pixSeed.cobv.txid, checkTxid],
  ...pixSeed.batch.txids.map((txid, index) => [`batch.txids.${index}`, txid, checkTxid] as [string, string, typeof checkTxid]),
  ['approvedRecurrence', pixSeed.approvedRecurrence, checkIdRec],
  ['failedRecurringCharge', pixSeed.failedRecurringCharge, checkTxid],
  ['pendingRecurrence.idRec', pixSeed.pendingRecurrence.idRec, checkIdRec],
];

describe('the Pix seed', () => {
  it.each(formats)('%s (%s) is in its format', (_name, value, check) => {
    expect(check(value).valid, JSON.stringify(check(value))).toBe(true);
  });

  it('holds the same records whatever the seed, each key one the receiving user can charge', async () => {
    const states = [];
    for (const seed of ['one', 'two']) {
      const sandbox = await startSandbox({ modules: sandboxModules, seed, port: 0 });
      try {
        states.push(sandbox.env.stateOf<PixState>('pix')!);
      } finally {
        await sandbox.stop();
      }
    }
    const [first, second] = states as [PixState, PixState];
    expect(second.receiver.keys).toEqual(first.receiver.keys);
    for (const key of first.receiver.keys) expect(checkPixKey(key).valid, key).toBe(true);
    const held = (state: PixState) => ({
      received: Object.keys(state.received),
      charges: Object.keys(state.charges),
      // The batch's charges get locations of their own, their tokens drawn from the seed: only what they serve is fixed.
      servedAtLocations: Object.values(state.locationTokens).sort(),
      recurrences: Object.fromEntries(Object.entries(state.recurrences).map(([id, recurrence]) => [id, recurrence.status])),
      recurringCharges: Object.keys(state.recurringCharges),
      recLocationTokens: state.recLocationTokens,
      batches: Object.keys(state.batches),
    });
    expect(held(second)).toEqual(held(first));
    expect(first.locationTokens).toMatchObject({
      [pixSeed.cob.location.token]: pixSeed.cob.txid,
      [pixSeed.cobv.location.token]: pixSeed.cobv.txid,
    });
    expect(held(first)).toMatchObject({
      received: [pixSeed.receivedPix],
      recurrences: { [pixSeed.approvedRecurrence]: 'APROVADA', [pixSeed.pendingRecurrence.idRec]: 'CRIADA' },
      recLocationTokens: { [pixSeed.pendingRecurrence.location.token]: pixSeed.pendingRecurrence.idRec },
      batches: [pixSeed.batch.id],
    });
  });
});

describe('the messages seed', () => {
  it.each(seededMessages.map(({ message, body }) => [message, body] as const))('its %s is valid under its schema', (message, body) => {
    // idMensagem is the exchange's, not a member of the message.
    const { idMensagem: _id, ...content } = body;
    expect(schemaIssues(message, content)).toEqual([]);
  });

  it('is on the queue of a fresh sandbox, each owing its answer', async () => {
    const sandbox = await startSandbox({ modules: sandboxModules, port: 0 });
    try {
      const state = sandbox.env.stateOf<MessagesState>('messages')!;
      expect(state.queue.map((entry) => entry.message.messageType)).toEqual(seededMessages.map(({ message }) => message));
      expect(Object.values(state.owed).every((owed) => !owed.answered)).toBe(true);
      // One answer owed of each kind a participant sends in reply.
      expect(
        Object.keys(state.owed)
          .map((owed) => owed.split(':')[0])
          .sort(),
      ).toEqual(Object.keys(replies).sort());
    } finally {
      await sandbox.stop();
    }
  });
});
