/**
 * Lossless long polling (section 4.9): GET with `pullNext` = `start` or a saved cursor, follow the
 * `svc-pull-next` header. The generator yields a batch and resumes only when the caller asks for the
 * next one — that is, after it handled the batch — and only then hands the new cursor to `onCursor`. A
 * poller killed at any point and restarted from the last saved cursor therefore gets again whatever it
 * had not finished: delivery is at least once, never lost (deduplicate by the message's own id).
 */
import type { MessagesFacade } from '../../generated/messages/operations.js';
import { ConnectionError, HttpError, ResponseValidationError, TimeoutError } from '../runtime/errors.js';
import { defaultSleep } from '../runtime/rate-limiter.js';

export interface PollOptions {
  /** Cursor to resume from (the last one `onCursor` saved); `start` when absent. */
  readonly cursor?: string;
  /** Saves the cursor that follows a consumed batch; awaited before the next poll. */
  readonly onCursor?: (cursor: string) => unknown;
  /** Stops the polling (the generator ends; the pending poll is cancelled). */
  readonly signal?: AbortSignal;
  /** How long one poll may stay open (default 90 s). */
  readonly waitMs?: number;
  /** Backoff after a failed poll: from `minMs` doubling to `maxMs` (defaults 500 ms and 30 s), reset by a success. */
  readonly backoff?: { readonly minMs?: number; readonly maxMs?: number };
  /** Told of each failed poll before the backoff. */
  readonly onError?: (error: unknown, attempt: number) => void;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PolledBatch {
  /** The messages of one answer, oldest first (their format is not shown: open objects). */
  readonly messages: readonly Record<string, unknown>[];
  /** The cursor after this batch; saved through `onCursor` once the batch is consumed. */
  readonly cursor: string;
  /** The cursor this batch was polled with. */
  readonly from: string;
}

/** Failures worth polling again for: no answer, a timeout, a server error or a rate limit. */
function transient(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error instanceof HttpError && (error.status >= 500 || error.status === 429);
}

export async function* pollMessages(facade: MessagesFacade, options: PollOptions): AsyncGenerator<PolledBatch> {
  const sleep = options.sleep ?? defaultSleep;
  const minMs = options.backoff?.minMs ?? 500;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  let cursor = options.cursor ?? 'start';
  let failures = 0;
  const { signal } = options;
  while (!signal?.aborted) {
    let next: string | null = null;
    let messages: unknown;
    try {
      messages = await facade.messages.poll(
        { path: { pullNext: cursor } },
        {
          ...(signal ? { signal } : {}),
          timeoutMs: options.waitMs ?? 90_000,
          maxRetries: 0,
          onResponse: (answer) => (next = answer.headers.get('svc-pull-next')),
        },
      );
    } catch (error) {
      if (signal?.aborted) return;
      if (!transient(error)) throw error;
      failures += 1;
      options.onError?.(error, failures);
      try {
        await sleep(Math.min(maxMs, minMs * 2 ** (failures - 1)), signal);
      } catch {
        return; // aborted while waiting
      }
      continue;
    }
    failures = 0;
    if (!next) {
      throw new ResponseValidationError('messages.poll', 200, [
        {
          pointer: '',
          rule: 'svc-pull-next',
          message: 'the answer has no svc-pull-next header: the poll cannot go on without losing its place',
        },
      ]);
    }
    const batch = Array.isArray(messages) ? (messages as Record<string, unknown>[]) : [];
    if (batch.length > 0) yield { messages: batch, cursor: next, from: cursor };
    // Reached only when the caller asked for more: the batch above is consumed, its cursor may be saved.
    await options.onCursor?.(next);
    cursor = next;
  }
}
