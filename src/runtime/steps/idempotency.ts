/**
 * One idempotency key per logical call, fixed before the first attempt and reused by every retry, so the
 * server executes the call at most once: in the operation's key header (`x-idempotency-key` of the spec),
 * or in the body member that carries it (`x-idempotency-body-field`). A key the caller gave is kept.
 */
import { randomUUID } from 'node:crypto';
import { generateIdempotencyKey } from '../idempotency.js';
import type { Step } from '../pipeline.js';

export const idempotencyKeyStep: Step = {
  name: 'idempotency-key',
  run(call, next) {
    const { info, args, options } = call;
    if (info.idempotencyKeyRule) {
      const name = info.idempotencyKeyRule.header;
      const existing = args.header?.[name];
      const key = typeof existing === 'string' ? existing : (options?.idempotencyKey ?? generateIdempotencyKey(info.idempotencyKeyRule));
      call.state.idempotencyKey = key;
      return next({ ...call, args: { ...args, header: { ...args.header, [name]: key } } });
    }
    if (info.idempotencyBodyField && typeof args.body === 'object' && args.body !== null) {
      const field = info.idempotencyBodyField;
      const existing = (args.body as Record<string, unknown>)[field];
      const key = typeof existing === 'string' ? existing : (options?.idempotencyKey ?? randomUUID());
      call.state.idempotencyKey = key;
      return next({ ...call, args: { ...args, body: { ...(args.body as Record<string, unknown>), [field]: key } } });
    }
    return next(call);
  },
};
