/**
 * The idempotency rules, on an operation that takes a key and whose valid request succeeded: the same key and
 * payload again answer the same status and body (nothing is made twice); the same key with another payload is
 * refused with 409, where the operation declares one. The other payload changes one free-text or number member
 * by a little, and the contract's judge must still accept it, so only the key's rule can refuse it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CallArgs } from '../../runtime/pipeline.js';
import { judged, result, type RunContext } from './context.js';

/** The body with one member changed to another value the contract accepts; null when none can be. */
export function otherPayload(context: RunContext, operationId: string, args: CallArgs): CallArgs | null {
  const { info } = context.operations.get(operationId)!;
  const body = args.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body instanceof Blob) return null;
  const candidates: CallArgs[] = [];
  const walk = (value: unknown, rebuild: (next: unknown) => unknown, depth: number): void => {
    if (depth > 4) return;
    if (typeof value === 'string') {
      candidates.push({ ...args, body: rebuild(`${value.slice(0, -1)}${value.endsWith('2') ? '3' : '2'}`) });
      candidates.push({ ...args, body: rebuild(`${value} 2`) });
    } else if (typeof value === 'number') {
      candidates.push({ ...args, body: rebuild(value + 1) }, { ...args, body: rebuild(value - 1) });
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [name, member] of Object.entries(value))
        walk(member, (next) => rebuild({ ...(value as Record<string, unknown>), [name]: next }), depth + 1);
    }
  };
  walk(body, (next) => next, 0);
  return candidates.find((candidate) => context.judge.requestIssues(info, candidate).length === 0) ?? null;
}

export async function idempotencyChecks(context: RunContext, operationId: string): Promise<void> {
  const { info, baseUrl } = context.operations.get(operationId)!;
  const made = context.made.get(operationId);
  const args = context.sentArgs.get(operationId);
  if (!info.idempotencyKeyRule || !made || !args) return;
  const replay = await context.session.send(info, args, { kind: 'token' }, { baseUrl });
  const received = replay.received;
  let failure = context.judge.verdict(info, replay, 'success');
  if (failure === null && received.kind === 'answer' && (received.status !== made.status || !isDeepStrictEqual(received.body, made.body)))
    failure = `the same key and payload answered ${received.status} with another body (first ${made.status}): a replay must answer what the first call did`;
  context.record(judged(operationId, 'idempotency', 'same key replays', failure, [replay], 'the same key and payload answered the same'));

  if (!info.responseStatuses.includes('409')) {
    context.record(result(operationId, 'idempotency', 'same key, other payload', 'skipped', 'the operation declares no 409'));
    return;
  }
  const other = otherPayload(context, operationId, args);
  if (!other) {
    context.record(
      result(operationId, 'idempotency', 'same key, other payload', 'skipped', 'no member can change while the request stays valid'),
    );
    return;
  }
  const conflict = await context.session.send(info, other, { kind: 'token' }, { baseUrl });
  let conflictFailure = context.judge.verdict(info, conflict, 'refusal');
  if (conflictFailure === null && conflict.received.kind === 'answer' && conflict.received.status !== 409)
    conflictFailure = `another payload under the same key answered ${conflict.received.status}; the key's rule answers 409`;
  context.record(
    judged(
      operationId,
      'idempotency',
      'same key, other payload',
      conflictFailure,
      [conflict],
      'another payload under the key was refused with 409',
    ),
  );
}
