/**
 * Requests breaking one rule at a time, made from the operation's valid request and its schema: a required
 * member or header left out, a string past its maxLength, a value off its pattern or format, a number past its
 * bounds, a member the schema does not know. Only a variant the contract's own judge refuses is sent (so the
 * target is never blamed for accepting what the contract allows), at most a few per operation, drawn from the
 * seed. Each must be refused with a declared 4xx whose body is the problem of section 7 for that status, and,
 * where the problem lists violations (interface B's `violacoes`), one of them must name the member.
 */
import { resolveLocalRef } from '../../bundle-operations.js';
import type { CallArgs } from '../../runtime/pipeline.js';
import type { Exchange } from '../model.js';
import { isWrite, judged, result, type RunContext } from './context.js';
import { newKey } from './valid.js';

/** Variants sent per operation at most: enough to catch a server that accepts anything, few enough to stay light. */
export const invalidPerOperation = 4;

interface Variant {
  readonly rule: string;
  /** The member broken (its last name), for the violations check. */
  readonly member: string | null;
  readonly args: CallArgs;
}

type Schema = Record<string, unknown>;

const resolved = (bundle: Schema, schema: unknown): Schema => resolveLocalRef(bundle, schema);

/** The request body schema of an operation (JSON bodies only), resolved one level. */
function bodySchema(bundle: Schema, method: string, path: string): Schema | null {
  const operation = ((bundle.paths as Schema | undefined)?.[path] as Schema | undefined)?.[method] as Schema | undefined;
  const body = resolved(bundle, operation?.requestBody);
  const media = (body.content as Schema | undefined)?.['application/json'] as Schema | undefined;
  return media ? resolved(bundle, media.schema) : null;
}

const typeOf = (schema: Schema): unknown => (Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type);

function bodyVariants(bundle: Schema, schema: Schema, body: Record<string, unknown>, args: CallArgs): Variant[] {
  const variants: Variant[] = [];
  const withBody = (next: Record<string, unknown>): CallArgs => ({ ...args, body: next });
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
    if (!(name in body)) continue;
    const { [name]: _left, ...rest } = body;
    variants.push({ rule: `required /body/${name}`, member: name, args: withBody(rest) });
  }
  for (const [name, raw] of Object.entries(properties)) {
    const member = resolved(bundle, raw);
    const type = typeOf(member);
    if (type === 'string' && typeof member.maxLength === 'number')
      variants.push({
        rule: `maxLength /body/${name}`,
        member: name,
        args: withBody({ ...body, [name]: '9'.repeat(member.maxLength + 1) }),
      });
    if (type === 'string' && typeof member.pattern === 'string')
      variants.push({ rule: `pattern /body/${name}`, member: name, args: withBody({ ...body, [name]: '~ not this ~' }) });
    if (type === 'string' && typeof member.format === 'string')
      variants.push({ rule: `format /body/${name}`, member: name, args: withBody({ ...body, [name]: 'not-a-value-of-this-format' }) });
    if ((type === 'integer' || type === 'number') && typeof member.maximum === 'number')
      variants.push({ rule: `maximum /body/${name}`, member: name, args: withBody({ ...body, [name]: member.maximum + 1 }) });
    if ((type === 'integer' || type === 'number') && typeof member.minimum === 'number')
      variants.push({ rule: `minimum /body/${name}`, member: name, args: withBody({ ...body, [name]: member.minimum - 1 }) });
  }
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
    variants.push({
      rule: 'additionalProperties /body',
      member: 'contratoVerifyUnknown',
      args: withBody({ ...body, contratoVerifyUnknown: 1 }),
    });
  return variants;
}

function parameterVariants(context: RunContext, operationId: string, args: CallArgs): Variant[] {
  const { info } = context.operations.get(operationId)!;
  const variants: Variant[] = [];
  for (const parameter of info.parameters) {
    if (!parameter.required || (parameter.in !== 'header' && parameter.in !== 'query')) continue;
    const values = { ...args[parameter.in] };
    const key = Object.keys(values).find((name) => name.toLowerCase() === parameter.name.toLowerCase());
    if (key === undefined) continue;
    delete values[key];
    variants.push({
      rule: `required ${parameter.in} ${parameter.name}`,
      member: parameter.name,
      args: { ...args, [parameter.in]: values },
    });
  }
  return variants;
}

const dated = /^(\d{4}-\d{2}-\d{2})(.*)$/;

/**
 * Variants that keep every schema but may break a rule across fields or against today: each date moved far
 * back or ahead, two dates of one place swapped, a number made much larger, an optional member left out. The
 * judge keeps those its cross-field checks refuse, named by the check.
 */
function crossFieldVariants(context: RunContext, operationId: string, args: CallArgs): Variant[] {
  const { info } = context.operations.get(operationId)!;
  const names = new Set((context.judge.modules.crossFieldChecks[operationId] ?? []).map((check) => check.name));
  if (names.size === 0) return [];
  const candidates: CallArgs[] = [];
  const walk = (value: unknown, rebuild: (next: unknown) => CallArgs, depth: number): void => {
    if (depth > 4 || typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Blob) return;
    const record = value as Record<string, unknown>;
    const put = (name: string, next: unknown): CallArgs => rebuild({ ...record, [name]: next });
    const dates = Object.keys(record).filter((name) => typeof record[name] === 'string' && dated.test(record[name] as string));
    for (const name of Object.keys(record)) {
      const member = record[name];
      const { [name]: _left, ...without } = record;
      candidates.push(rebuild(without));
      if (typeof member === 'string' && dated.test(member))
        for (const day of ['2000-01-03', '2099-12-28']) candidates.push(put(name, member.replace(dated, `${day}$2`)));
      if (typeof member === 'number') candidates.push(put(name, member * 1000 + 1));
      if (typeof member === 'string' && /^\d+\.\d{2}$/.test(member)) candidates.push(put(name, (Number(member) * 1000 + 1).toFixed(2)));
      walk(member, (next) => put(name, next), depth + 1);
    }
    for (const [first, second] of dates.flatMap((a, index) => dates.slice(index + 1).map((b) => [a, b] as const)))
      candidates.push(rebuild({ ...record, [first]: record[second], [second]: record[first] }));
  };
  for (const part of ['query', 'body'] as const) walk(args[part], (next) => ({ ...args, [part]: next }), 0);
  const found = new Map<string, Variant>();
  for (const candidate of candidates) {
    const issues = context.judge.requestIssues(info, candidate);
    const rule = issues.find((issue) => names.has(issue.rule));
    if (rule && issues.every((issue) => names.has(issue.rule)) && !found.has(rule.rule))
      found.set(rule.rule, { rule: `cross-field ${rule.rule}`, member: null, args: candidate });
  }
  return [...found.values()];
}

/** Whether a refusal's violations (when it lists any) name `member`. */
function namesMember(body: unknown, member: string): boolean {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const listed = [record.violacoes, record.violations].find(Array.isArray) as Record<string, unknown>[] | undefined;
  if (!listed || listed.length === 0) return true;
  return listed.some((each) => JSON.stringify(each).toLowerCase().includes(member.toLowerCase()));
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

export async function invalidRequests(context: RunContext, operationId: string): Promise<void> {
  const { info, baseUrl, document } = context.operations.get(operationId)!;
  const args = context.sentArgs.get(operationId);
  if (!args) return;
  if (isWrite(info) && !context.allowWrites) return;
  const bundle = context.judge.bundle(document) as Schema;
  const schema = info.requestBody?.mediaType === 'application/json' ? bodySchema(bundle, info.method, info.path) : null;
  const candidates = [
    ...parameterVariants(context, operationId, args),
    ...(schema && typeof args.body === 'object' && args.body !== null && !Array.isArray(args.body)
      ? bodyVariants(bundle, schema, args.body as Record<string, unknown>, args)
      : []),
  ];
  // A variant is known to break a rule only if the request it was made from keeps them all.
  const baseline = context.judge.requestIssues(info, args);
  if (baseline.length > 0) {
    const first = baseline[0]!;
    context.record(
      result(
        operationId,
        'invalid',
        'a rule broken',
        'skipped',
        `its valid request is not valid here (${first.pointer} ${first.rule}), so no variant can be judged`,
      ),
    );
    return;
  }
  const refused = shuffled(candidates, context.random).filter((variant) => context.judge.requestIssues(info, variant.args).length > 0);
  // Each rule across fields the operation has gets its variant; one-field rules fill the rest.
  const across = crossFieldVariants(context, operationId, args);
  const chosen = [...across, ...refused.slice(0, Math.max(invalidPerOperation - across.length, 2))];
  for (const variant of chosen) {
    // A key of its own: a refusal must come from the broken rule, not from a replay of the valid call.
    const key = info.idempotencyKeyRule?.header;
    const sent =
      key && variant.args.header?.[key] !== undefined
        ? { ...variant.args, header: { ...variant.args.header, [key]: newKey(info, context.random) } }
        : variant.args;
    const exchange: Exchange = await context.session.send(info, sent, { kind: 'token' }, { baseUrl });
    let failure = context.judge.verdict(info, exchange, 'refusal');
    const received = exchange.received;
    if (failure === null && variant.member && received.kind === 'answer' && !namesMember(received.body, variant.member))
      failure = `refused with ${received.status}, but its violations do not name ${variant.member}`;
    context.record(judged(operationId, 'invalid', variant.rule, failure, [exchange], `refused with a declared 4xx problem`));
  }
  if (chosen.length === 0 && candidates.length > 0)
    context.record(
      result(operationId, 'invalid', 'a rule broken', 'skipped', 'no variant of its request breaks a rule the contract checks'),
    );
}
