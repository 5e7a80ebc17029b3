/**
 * The valid request of an operation: its example, with what its producers made in this run (Link Objects),
 * new values for the ids the caller chooses and a new idempotency key; accepted with a declared success whose
 * body passes the strict check. A write whose producer made nothing is not sent (it would act on an id the run
 * did not create); a read then asks for the example's id and is judged only as declared.
 */
import type { OperationInfo } from '../../runtime/contract.js';
import type { CallArgs } from '../../runtime/pipeline.js';
import { parameterValue } from '../../runtime/contract-check.js';
import { generateIdempotencyKey } from '../../runtime/idempotency.js';
import { pointerTokens } from '../../runtime/json-pointer.js';
import type { Exchange } from '../model.js';
import { type LinkData, redrawn, withLink } from '../requests.js';
import { exampleArgs, isWrite, judged, result, type RunContext } from './context.js';

/** A new idempotency key within the operation's limits, drawn from the run's seed. */
export function newKey(info: OperationInfo, random: () => number): string {
  return generateIdempotencyKey(info.idempotencyKeyRule!, (below) => Math.floor(random() * below));
}

/** The producers whose links lead to `operationId`, in table order. */
export function producersOf(context: RunContext, operationId: string): { producer: string; link: LinkData }[] {
  return [...context.operations.entries()].flatMap(([producer, { data }]) =>
    data.links.filter((link) => link.operationId === operationId).map((link) => ({ producer, link })),
  );
}

/** Every place a chosen-id pointer reaches in a body (`*` stands for each item of an array). */
function placesOf(body: unknown, tokens: readonly string[]): { parent: Record<string, unknown>; key: string }[] {
  if (tokens.length === 0 || typeof body !== 'object' || body === null) return [];
  const [head, ...rest] = tokens;
  const keys = head === '*' && Array.isArray(body) ? body.map((_, index) => String(index)) : [head!];
  return keys.flatMap((key) =>
    rest.length === 0 ? [{ parent: body as Record<string, unknown>, key }] : placesOf((body as Record<string, unknown>)[key], rest),
  );
}

/** New values for the ids the caller chooses (path parameters by name, body members by pointer), accepted by the contract. */
export function withChosenIds(context: RunContext, info: OperationInfo, args: CallArgs, chosen: readonly string[]): CallArgs {
  if (chosen.length === 0) return args;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const path = { ...args.path };
    const body = structuredClone(args.body);
    for (const name of chosen) {
      if (!name.startsWith('/')) path[name] = redrawn(String(path[name]), context.random);
      else
        for (const { parent, key } of placesOf(body, pointerTokens(name)))
          if (typeof parent[key] === 'string') parent[key] = redrawn(parent[key], context.random);
    }
    const next = { ...args, path, ...(body === undefined ? {} : { body }) };
    if (context.judge.requestIssues(info, next).length === 0) return next;
  }
  return args;
}

/** Linked values in their parameters' types (an answer's number naming a path segment the spec types as text). */
function typedParameters(info: OperationInfo, args: CallArgs): CallArgs {
  const typed = { ...args };
  for (const part of ['path', 'query', 'header'] as const) {
    const values = args[part];
    if (!values) continue;
    typed[part] = Object.fromEntries(
      Object.entries(values).map(([name, value]) => {
        const type = info.parameters.find((each) => each.in === part && each.name === name)?.type ?? null;
        return [name, typeof value === 'number' || typeof value === 'string' ? parameterValue(String(value), type) : value];
      }),
    );
  }
  return typed;
}

/** How far the sandbox clock is moved for a state only the platform leaves (registries confirm within minutes). */
export const platformWaitSeconds = 600;

/** A declared 409 or 422 to a call acting on what this run made: a state rule, which time on the platform may lift. */
function waitsForThePlatform(info: OperationInfo, exchange: Exchange): boolean {
  const received = exchange.received;
  return received.kind === 'answer' && [409, 422].includes(received.status) && info.responseStatuses.includes(String(received.status));
}

export async function validRequest(context: RunContext, operationId: string): Promise<void> {
  const { info, data, baseUrl } = context.operations.get(operationId)!;
  const write = isWrite(info);
  if (write && !context.allowWrites) {
    context.record(result(operationId, 'valid', 'example accepted', 'skipped', 'a write: runs only with --allow-writes'));
    return;
  }
  let args = exampleArgs(context, operationId);
  const producers = producersOf(context, operationId);
  const used = producers.find(({ producer, link }) => String(context.made.get(producer)?.status) === link.status);
  if (used) args = typedParameters(info, withLink(args, used.link, context.made.get(used.producer)!));
  else if (producers.length > 0 && write) {
    const names = [...new Set(producers.map(({ producer }) => producer))].join(' or ');
    context.record(
      result(operationId, 'valid', 'example accepted', 'skipped', `acts on what ${names} makes, and it made nothing in this run`),
    );
    return;
  }
  args = withChosenIds(context, info, args, data.callerChosen);
  if (info.idempotencyKeyRule)
    args = { ...args, header: { ...args.header, [info.idempotencyKeyRule.header]: newKey(info, context.random) } };
  let exchange = await context.session.send(info, args, { kind: 'token' }, { baseUrl });
  const examplesOnly = producers.length > 0 && !used;
  let failure = context.judge.verdict(info, exchange, examplesOnly ? 'declared' : 'success');
  const rule = examplesOnly ? 'example id answered as declared' : 'example accepted';
  if (failure !== null && used && waitsForThePlatform(info, exchange)) {
    // What it acts on is in a state only the platform leaves (a boleto the registry has yet to confirm).
    if (!context.control) {
      context.record(
        result(
          operationId,
          'valid',
          rule,
          'needs-platform',
          `${failure}: what it acts on waits for the platform to move on, and the target has no control plane to ask`,
          [exchange],
        ),
      );
      return;
    }
    await context.control.control.clock(platformWaitSeconds);
    exchange = await context.session.send(info, args, { kind: 'token' }, { baseUrl });
    failure = context.judge.verdict(info, exchange, 'success');
  }
  context.sentArgs.set(operationId, args);
  if (failure === null && exchange.received.kind === 'answer' && /^2/.test(String(exchange.received.status)))
    context.made.set(operationId, { args, status: exchange.received.status, body: exchange.received.body });
  context.record(
    judged(operationId, 'valid', rule, failure, [exchange], 'accepted with a declared status and a body the strict check passes'),
  );
}
