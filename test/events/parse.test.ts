/**
 * Webhook payloads (section 6) through parseEvent and `contrato validate events`' checker: every event
 * type's named examples parse as that type; each breaks in a named way when a rule is broken; unknown
 * types come back unthrown; dedupe keys follow sections 6.3 and 6.4.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveLocal, type JsonObject } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { checkEvent, dedupeKey, EventValidationError, eventTypes, parseEvent, type EventType } from '../../src/events/index.js';

const document = JSON.parse(readFileSync(bundledSpecPath('accounts'), 'utf8')) as JsonObject;

/** The named examples of the delivery of one event type, from the `webhooks:` of the bundle. */
function examplesOf(type: string): [string, Record<string, unknown>][] {
  const item = resolveLocal(document, (document.webhooks as JsonObject)[type]) as JsonObject;
  const body = resolveLocal(document, (item.post as JsonObject).requestBody) as JsonObject;
  const media = (body.content as JsonObject)['application/json'] as JsonObject;
  return Object.entries(media.examples as JsonObject).map(([name, example]) => [
    name,
    (resolveLocal(document, example) as { value: Record<string, unknown> }).value,
  ]);
}
const first = (type: EventType): Record<string, unknown> => structuredClone(examplesOf(type)[0]![1]);
const edit = (type: EventType, change: (payload: Record<string, any>) => void): Record<string, unknown> => {
  const payload = first(type);
  change(payload);
  return payload;
};

describe('every event type of section 6', () => {
  it('is described, with the fourteen types of sections 6.2 to 6.4', () => {
    expect([...eventTypes].sort()).toEqual(
      [
        'CASHOUT',
        'INFRACTION',
        'RECEIVE',
        'REFUND',
        'TRANSFER',
        'crypto.order.settled',
        'crypto.order.updated',
        'crypto.wallet.first_purchase',
        'crypto.wallet.registered',
        'invoice.cancelled',
        'invoice.overdue',
        'invoice.paid',
        'invoice.registered',
        'invoice.settled',
      ].sort(),
    );
  });

  const examples = eventTypes.flatMap((type) => examplesOf(type).map(([name, value]) => [type, name, value] as const));
  it.each(examples)('%s example %s parses as a known event of its type', (type, _name, value) => {
    const event = parseEvent(JSON.stringify(value));
    expect(event.known).toBe(true);
    expect(event.type).toBe(type);
    expect(event.data).toEqual((value as { data: unknown }).data);
    expect(checkEvent(type, value)).toEqual([]);
  });

  it.each(eventTypes)('%s without data is refused, naming /data', (type) => {
    const payload = edit(type, (p) => delete p.data);
    expect(() => parseEvent(payload)).toThrow(EventValidationError);
    expect(checkEvent(type, payload).map((i) => i.pointer)).toContain('/data');
  });

  it.each(eventTypes)('%s delivered under another type is refused by that type', (type) => {
    const other = eventTypes.find((t) => t !== type)!;
    expect(checkEvent(other, first(type)).length).toBeGreaterThan(0);
  });
});

interface Case {
  readonly rule: string;
  readonly given: string;
  readonly type: EventType;
  readonly payload: Record<string, unknown>;
  readonly want: 'valid' | RegExp;
}

const cases: Case[] = [
  {
    rule: 'payment.amount is a string (decision 11)',
    given: 'amount "150.00"',
    type: 'TRANSFER',
    payload: edit('TRANSFER', (p) => (p.data.payment = { amount: '150.00', currency: 'BRL' })),
    want: 'valid',
  },
  {
    rule: 'payment.amount is a string (decision 11)',
    given: 'amount 150 (a number)',
    type: 'TRANSFER',
    payload: edit('TRANSFER', (p) => (p.data.payment = { amount: 150, currency: 'BRL' })),
    want: /\/data\/payment\/amount: .*string/,
  },
  {
    rule: 'refund element amount is a number',
    given: 'a refund of 10.5',
    type: 'REFUND',
    payload: edit('REFUND', (p) => (p.data.refunds = [{ status: 'LIQUIDATED', payment: { amount: 10.5, currency: 'BRL' } }])),
    want: 'valid',
  },
  {
    rule: 'refund element amount is a number',
    given: 'a refund of "10.50"',
    type: 'REFUND',
    payload: edit('REFUND', (p) => (p.data.refunds = [{ status: 'LIQUIDATED', payment: { amount: '10.50', currency: 'BRL' } }])),
    want: /\/data\/refunds\/0\/payment\/amount: .*number/,
  },
  {
    rule: 'invoice events carry invoiceId',
    given: 'no invoiceId',
    type: 'invoice.paid',
    payload: edit('invoice.paid', (p) => delete p.data.invoiceId),
    want: /\/data.*invoiceId/,
  },
  {
    rule: 'new response fields are tolerated (9.3)',
    given: 'an extra member',
    type: 'invoice.paid',
    payload: edit('invoice.paid', (p) => (p.data.newField = 'x')),
    want: 'valid',
  },
  {
    rule: 'new enum values are tolerated (9.3)',
    given: 'status PARTIALLY_PAID',
    type: 'invoice.paid',
    payload: edit('invoice.paid', (p) => (p.data.status = 'PARTIALLY_PAID')),
    want: 'valid',
  },
  {
    rule: 'crypto.order.updated names both statuses',
    given: 'no previousStatus',
    type: 'crypto.order.updated',
    payload: edit('crypto.order.updated', (p) => delete p.data.previousStatus),
    want: /previousStatus/,
  },
  {
    rule: 'crypto.order.settled has no destinationWalletId',
    given: 'a destinationWalletId',
    type: 'crypto.order.settled',
    payload: edit('crypto.order.settled', (p) => (p.data.destinationWalletId = '12')),
    want: /\/data/,
  },
  {
    rule: 'crypto.wallet.registered names the wallet',
    given: 'no walletId',
    type: 'crypto.wallet.registered',
    payload: edit('crypto.wallet.registered', (p) => delete p.data.walletId),
    want: /walletId/,
  },
  {
    rule: 'the type is the discriminator',
    given: 'type invoice.paid under invoice.settled',
    type: 'invoice.settled',
    payload: first('invoice.paid'),
    want: /\/type/,
  },
];

describe('event rules, given/want', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const issues = checkEvent(c.type, c.payload).map((i) => `${i.pointer}: ${i.message}`);
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.join('\n')).toMatch(c.want);
  });
});

describe('parseEvent', () => {
  it('returns an unknown type unthrown, with its data', () => {
    const event = parseEvent({ type: 'pix.automatic.created', data: { id: 1 } });
    expect(event).toEqual({
      known: false,
      type: 'pix.automatic.created',
      data: { id: 1 },
      payload: { type: 'pix.automatic.created', data: { id: 1 } },
    });
  });
  it.each([
    ['not JSON', '{"type": ', /is not JSON/],
    ['an array', '[]', /must be a JSON object/],
    ['no type', '{"data": {}}', /\/type: must be the event type/],
  ])('refuses %s', (_label, body, want) => {
    expect(() => parseEvent(body)).toThrow(want);
  });
  it('reads bytes as UTF-8 JSON', () => {
    expect(parseEvent(Buffer.from(JSON.stringify(first('invoice.paid')))).type).toBe('invoice.paid');
  });
});

describe('dedupeKey (sections 6.3 and 6.4, decision 21)', () => {
  const order = (data: Record<string, unknown>) => parseEvent(edit('crypto.order.updated', (p) => Object.assign(p.data, data)));
  it.each([
    [
      'invoice-{invoiceId}-{event} with the full type',
      parseEvent(edit('invoice.paid', (p) => (p.data.invoiceId = 90215))),
      'invoice-90215-invoice.paid',
    ],
    [
      'invoice.overdue of the same invoice differs',
      parseEvent(edit('invoice.overdue', (p) => (p.data.invoiceId = 90215))),
      'invoice-90215-invoice.overdue',
    ],
    [
      'crypto-wallet-{walletId}-registered',
      parseEvent(edit('crypto.wallet.registered', (p) => (p.data.walletId = '77'))),
      'crypto-wallet-77-registered',
    ],
    [
      'crypto-wallet-{walletId}-first_purchase',
      parseEvent(edit('crypto.wallet.first_purchase', (p) => (p.data.walletId = '77'))),
      'crypto-wallet-77-first_purchase',
    ],
    [
      'crypto-order-{id}-{from}-{to} without updatedAt',
      order({
        orderId: '5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11',
        previousStatus: 'PENDING_OPERATOR',
        status: 'APPROVED',
        updatedAt: undefined,
      }),
      'crypto-order-5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11-PENDING_OPERATOR-APPROVED',
    ],
    [
      'crypto-order-{id}-{from}-{to}-{updatedAtMs}',
      order({
        orderId: '5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11',
        previousStatus: 'PENDING_OPERATOR',
        status: 'APPROVED',
        updatedAt: '2025-04-10T12:00:00Z',
      }),
      `crypto-order-5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11-PENDING_OPERATOR-APPROVED-${Date.parse('2025-04-10T12:00:00Z')}`,
    ],
    [
      'crypto-order-settled-{id}-{updatedAtMs}',
      parseEvent(
        edit('crypto.order.settled', (p) =>
          Object.assign(p.data, { orderId: '5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11', updatedAt: '2025-04-10T12:00:00Z' }),
        ),
      ),
      `crypto-order-settled-5b1f7d0e-8c2a-4f7e-9b51-0f6e2d3c4a11-${Date.parse('2025-04-10T12:00:00Z')}`,
    ],
  ])('%s', (_label, event, want) => {
    expect(dedupeKey(event)).toBe(want);
  });

  it('gives every example of every type its own key, and the same key for the same delivery', () => {
    const keys = eventTypes.flatMap((type) => examplesOf(type).map(([, value]) => dedupeKey(parseEvent(value))));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(eventTypes.flatMap((type) => examplesOf(type).map(([, value]) => dedupeKey(parseEvent(structuredClone(value))))));
  });

  it('tells two partial refunds of one transaction apart', () => {
    const refund = (e2e: string, count: number) =>
      parseEvent(
        edit(
          'REFUND',
          (p) =>
            (p.data.refunds = Array.from({ length: count }, (_, i) => ({
              status: 'LIQUIDATED',
              endToEndId: i === count - 1 ? e2e : `D0000000020250410120${i}abcdefghijk`,
              payment: { amount: 1, currency: 'BRL' },
            }))),
        ),
      );
    expect(dedupeKey(refund('D12345678202504101200abcdefghijk', 1))).not.toBe(dedupeKey(refund('D12345678202504101201abcdefghijk', 2)));
  });

  it('keys an unknown type by its content', () => {
    expect(dedupeKey(parseEvent({ type: 'x.y', data: { a: 1 } }))).toBe(dedupeKey(parseEvent({ type: 'x.y', data: { a: 1 } })));
    expect(dedupeKey(parseEvent({ type: 'x.y', data: { a: 1 } }))).not.toBe(dedupeKey(parseEvent({ type: 'x.y', data: { a: 2 } })));
  });
});

describe('deeply nested deliveries (no recursion, a documented limit)', () => {
  /** A value nested `depth` objects deep, built in a loop: no recursion builds it. */
  const nestedValue = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let level = 0; level < depth; level += 1) value = { a: value };
    return value;
  };

  it('keys a 100 000-deep unknown event without overflowing the stack, by its content', () => {
    const event = (leaf: number) => ({
      known: false as const,
      type: 'x.deep',
      data: nestedValue(100_000, leaf),
      payload: { type: 'x.deep', data: nestedValue(100_000, leaf) },
    });
    const key = dedupeKey(event(1));
    expect(key).toMatch(/^x\.deep-[0-9a-f]{32}$/);
    expect(dedupeKey(event(1))).toBe(key);
    expect(dedupeKey(event(2))).not.toBe(key);
  });

  it('keys a shallow unknown event as before (a hash of its JSON text), so stored keys stay valid', () => {
    const payload = { type: 'x.y', data: { a: 1, list: [true, null, 'é'] } };
    const before = `x.y-${createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 32)}`;
    expect(dedupeKey(parseEvent(payload))).toBe(before);
  });

  it.each([
    ['text', (depth: number) => `{"type":"x.deep","data":${'['.repeat(depth)}${']'.repeat(depth)}}`],
    ['bytes', (depth: number) => Buffer.from(`{"type":"x.deep","data":${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}}`)],
    ['a parsed value', (depth: number) => ({ type: 'x.deep', data: nestedValue(depth, 0) })],
  ])('refuses %s nested 100 000 deep with rule maxNestingDepth, and accepts it at the limit', (_label, build) => {
    const refusal = (() => {
      try {
        parseEvent(build(100_000));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(EventValidationError);
    expect((refusal as EventValidationError).issues).toEqual([
      { pointer: '', rule: 'maxNestingDepth', message: 'nests objects and arrays deeper than 64 levels' },
    ]);
    expect(parseEvent(build(63)).type).toBe('x.deep');
    expect(() => parseEvent(build(64))).toThrow(/deeper than 64 levels/);
    expect(parseEvent(build(64), { maxNestingDepth: 65 }).type).toBe('x.deep');
  });
});
