/**
 * `contrato diff`: the changes between two bundled specs, each classified under section 9.3 of the
 * interface specification. Compatible: a new resource, a new optional parameter or field, a new response
 * field, a reordered field, a new enumeration element in a response, anything widened in a request.
 * Breaking: a removed operation, field or parameter, a new required request field, anything narrowed in
 * a request (type, pattern, format, length, range, enumeration), a removed response enumeration element, a
 * changed method or path of a documented (not provisional) operation, a removed status code, a new 1xx–3xx
 * status code. A newly documented error status (4xx, 5xx) on an existing operation is compatible: a client
 * already handles problem answers it was not told of (section 7), so it only documents what could happen.
 * A breaking change that corrects a defect of the released contract is accepted when a corrections file
 * lists it (corrections.ts); the report then says CORRECTION, and a listed correction that no longer
 * occurs is a failure of its own, so the list cannot rot.
 */

import { bundleOperations, resolveLocalRef, type BundleOperation } from '../bundle-operations.js';

/** An object of a bundled spec; its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

/** `correction`: breaking by the rules, accepted because a corrections file lists it with its reason. */
export type Classification = 'breaking' | 'compatible' | 'correction';

export interface Change {
  readonly classification: Classification;
  /** Where: `GET /fee-rules request body /name`, `webhook invoice.paid payload /data/amount`, ... */
  readonly where: string;
  readonly change: string;
  /** Why a `correction` is accepted (from its corrections file). */
  readonly reason?: string;
}

/**
 * A breaking change that corrects a defect of the released contract, as a corrections file lists it
 * (`specs/releases/<interface>/<version>.corrections.yaml`): `where` and `change` exactly as reported.
 */
export interface Correction {
  readonly where: string;
  readonly change: string;
  /** One line: the defect and its source. */
  readonly reason: string;
}

export interface DiffResult {
  readonly changes: Change[];
  readonly breaking: boolean;
  readonly oldVersion: string;
  readonly newVersion: string;
  /** The major version was raised, so breaking changes are allowed. */
  readonly majorRaised: boolean;
  /** Listed corrections that match no breaking change any more (each one fails the diff). */
  readonly staleCorrections: readonly Correction[];
}

/** A local `$ref` followed, with the bundle it belongs to. */
const resolve = (document: Json, value: unknown): Json => resolveLocalRef(document, value);

interface Operation extends BundleOperation {
  readonly key: string;
}

/** The operations by operationId (by method and path when one has none), so a moved route is seen as moved. */
function operationsOf(document: Json): Map<string, Operation> {
  return new Map(
    bundleOperations(document).map((entry) => {
      const key =
        typeof entry.operation.operationId === 'string' ? entry.operation.operationId : `${entry.method.toUpperCase()} ${entry.path}`;
      return [key, { ...entry, key }];
    }),
  );
}

const typesOf = (schema: Json): Set<string> => {
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (typeof schema.type === 'string') {
    const types = new Set([schema.type]);
    if (schema.type === 'number') types.add('integer');
    return types;
  }
  return new Set();
};

/** Whether every value the old bound allowed is still allowed (for a lower or upper limit). */
function narrowed(oldLimit: unknown, newLimit: unknown, lower: boolean): boolean {
  if (newLimit === undefined) return false;
  if (oldLimit === undefined) return true;
  return lower ? Number(newLimit) > Number(oldLimit) : Number(newLimit) < Number(oldLimit);
}

const limits: { keyword: string; lower: boolean }[] = [
  { keyword: 'minLength', lower: true },
  { keyword: 'maxLength', lower: false },
  { keyword: 'minimum', lower: true },
  { keyword: 'maximum', lower: false },
  { keyword: 'exclusiveMinimum', lower: true },
  { keyword: 'exclusiveMaximum', lower: false },
  { keyword: 'minItems', lower: true },
  { keyword: 'maxItems', lower: false },
];

/** A client error or server error status (`404`, `5XX`): a problem answer every client must already handle. */
const errorStatus = /^[45](\d\d|XX)$/i;

class Differ {
  readonly changes: Change[] = [];
  private readonly visiting = new Set<string>();

  constructor(
    private readonly before: Json,
    private readonly after: Json,
  ) {}

  add(classification: Classification, where: string, change: string): void {
    this.changes.push({ classification, where, change });
  }

  /**
   * Compares two schemas at `where`. In a request (`direction` request) what the client sends must stay
   * acceptable: narrowing breaks it. In a response the client reads: removing breaks it, adding does not.
   */
  schema(oldRaw: unknown, newRaw: unknown, where: string, direction: 'request' | 'response'): void {
    const key = `${JSON.stringify(oldRaw)}|${JSON.stringify(newRaw)}|${direction}`;
    if (this.visiting.has(key)) return;
    this.visiting.add(key);
    const before = resolve(this.before, oldRaw);
    const after = resolve(this.after, newRaw);
    const request = direction === 'request';

    const oldTypes = typesOf(before);
    const newTypes = typesOf(after);
    if (oldTypes.size > 0 && newTypes.size > 0) {
      const lost = [...oldTypes].filter((type) => !newTypes.has(type));
      const gained = [...newTypes].filter((type) => !oldTypes.has(type));
      if (lost.length > 0) this.add('breaking', where, `type no longer accepts ${lost.join(', ')}`);
      if (gained.length > 0) this.add(request ? 'compatible' : 'breaking', where, `type now also ${gained.join(', ')}`);
    } else if (oldTypes.size === 0 && newTypes.size > 0 && request) {
      this.add('breaking', where, `type narrowed to ${[...newTypes].join(', ')}`);
    }

    for (const keyword of ['pattern', 'format', 'const'] as const) {
      if (JSON.stringify(before[keyword]) === JSON.stringify(after[keyword])) continue;
      const what = `${keyword} ${before[keyword] === undefined ? 'added' : after[keyword] === undefined ? 'removed' : 'changed'} (${JSON.stringify(before[keyword] ?? null)} → ${JSON.stringify(after[keyword] ?? null)})`;
      // A new or changed constraint narrows what is accepted; removing it widens.
      const narrows = after[keyword] !== undefined;
      this.add(request ? (narrows ? 'breaking' : 'compatible') : narrows ? 'compatible' : 'breaking', where, what);
    }

    for (const { keyword, lower } of limits) {
      if (before[keyword] === after[keyword]) continue;
      const tighter = narrowed(before[keyword], after[keyword], lower);
      const what = `${keyword} ${JSON.stringify(before[keyword] ?? null)} → ${JSON.stringify(after[keyword] ?? null)}`;
      this.add(request ? (tighter ? 'breaking' : 'compatible') : tighter ? 'compatible' : 'breaking', where, what);
    }

    const oldEnum = (before.enum ?? before['x-known-values']) as unknown[] | undefined;
    const newEnum = (after.enum ?? after['x-known-values']) as unknown[] | undefined;
    if (oldEnum || newEnum) {
      const removed = (oldEnum ?? []).filter((value) => !(newEnum ?? []).some((other) => JSON.stringify(other) === JSON.stringify(value)));
      const added = (newEnum ?? []).filter((value) => !(oldEnum ?? []).some((other) => JSON.stringify(other) === JSON.stringify(value)));
      const closedBefore = Array.isArray(before.enum);
      const closedAfter = Array.isArray(after.enum);
      if (removed.length > 0)
        this.add(
          'breaking',
          where,
          `enumeration element${removed.length > 1 ? 's' : ''} removed: ${removed.map((v) => JSON.stringify(v)).join(', ')}`,
        );
      if (added.length > 0)
        this.add(
          'compatible',
          where,
          `enumeration element${added.length > 1 ? 's' : ''} added: ${added.map((v) => JSON.stringify(v)).join(', ')}`,
        );
      if (request && !closedBefore && closedAfter) this.add('breaking', where, 'values restricted to an enumeration');
    }

    // Members of an object.
    const oldProperties = (before.properties ?? {}) as Json;
    const newProperties = (after.properties ?? {}) as Json;
    const oldRequired = new Set((before.required ?? []) as string[]);
    const newRequired = new Set((after.required ?? []) as string[]);
    for (const name of Object.keys(oldProperties)) {
      const at = `${where}/${name}`;
      if (!(name in newProperties)) {
        // A request member the server no longer knows is refused by a strict server; a response member is gone.
        this.add('breaking', at, `${request ? 'request' : 'response'} field removed`);
        continue;
      }
      this.schema(oldProperties[name], newProperties[name], at, direction);
    }
    for (const name of Object.keys(newProperties)) {
      if (name in oldProperties) continue;
      const at = `${where}/${name}`;
      if (request && newRequired.has(name)) this.add('breaking', at, 'new required request field');
      else this.add('compatible', at, request ? 'new optional request field' : 'new response field');
    }
    for (const name of newRequired) {
      if (name in oldProperties && !oldRequired.has(name))
        this.add(request ? 'breaking' : 'compatible', `${where}/${name}`, 'now required');
    }
    for (const name of oldRequired) {
      if (!newRequired.has(name) && name in newProperties)
        this.add(request ? 'compatible' : 'breaking', `${where}/${name}`, 'no longer required');
    }
    if (request && before.additionalProperties !== false && after.additionalProperties === false)
      this.add('breaking', where, 'unknown members now refused');
    if (before.items || after.items) this.schema(before.items ?? {}, after.items ?? {}, `${where}[]`, direction);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const oldParts = (before[keyword] ?? []) as unknown[];
      const newParts = (after[keyword] ?? []) as unknown[];
      const count = Math.max(oldParts.length, newParts.length);
      for (let index = 0; index < count; index += 1) {
        if (JSON.stringify(resolve(this.before, oldParts[index])) === JSON.stringify(resolve(this.after, newParts[index]))) continue;
        if (oldParts[index] === undefined)
          this.add(
            keyword === 'allOf' && request ? 'breaking' : 'compatible',
            `${where} ${keyword}[${index}]`,
            'alternative or constraint added',
          );
        else if (newParts[index] === undefined)
          this.add(
            keyword === 'allOf' && request ? 'compatible' : 'breaking',
            `${where} ${keyword}[${index}]`,
            'alternative or constraint removed',
          );
        else this.schema(oldParts[index], newParts[index], `${where} ${keyword}[${index}]`, direction);
      }
    }
    if (
      JSON.stringify(before.if ?? null) !== JSON.stringify(after.if ?? null) ||
      JSON.stringify(before.then ?? null) !== JSON.stringify(after.then ?? null)
    ) {
      this.add(request ? 'breaking' : 'compatible', where, 'conditional rule (if/then) changed');
    }
  }

  parameters(before: Operation, after: Operation, where: string): void {
    const collect = (document: Json, operation: Operation) =>
      new Map(
        [...((operation.pathItem.parameters ?? []) as unknown[]), ...((operation.operation.parameters ?? []) as unknown[])]
          .map((raw) => resolve(document, raw))
          .map((parameter) => [`${parameter.in} ${String(parameter.name).toLowerCase()}`, parameter] as const),
      );
    const oldParameters = collect(this.before, before);
    const newParameters = collect(this.after, after);
    for (const [key, parameter] of oldParameters) {
      const next = newParameters.get(key);
      if (!next) {
        this.add('breaking', `${where} parameter ${key}`, 'parameter removed');
        continue;
      }
      if (!parameter.required && next.required) this.add('breaking', `${where} parameter ${key}`, 'parameter now required');
      this.schema(parameter.schema ?? {}, next.schema ?? {}, `${where} parameter ${key}`, 'request');
    }
    for (const [key, parameter] of newParameters) {
      if (oldParameters.has(key)) continue;
      this.add(
        parameter.required ? 'breaking' : 'compatible',
        `${where} parameter ${key}`,
        parameter.required ? 'new required parameter' : 'new optional parameter',
      );
    }
  }

  /** Compares the JSON bodies of two request bodies or responses (each `undefined` when there is none). */
  body(before: unknown, after: unknown, where: string, direction: 'request' | 'response'): void {
    const media = (document: Json, holder: unknown): unknown => {
      const resolved = holder ? resolve(document, holder) : undefined;
      const content = (resolved?.content ?? {}) as Json;
      const key = Object.keys(content).find((type) => /json/.test(type)) ?? Object.keys(content)[0];
      return key ? (content[key] as Json).schema : undefined;
    };
    const oldSchema = media(this.before, before);
    const newSchema = media(this.after, after);
    if (!oldSchema && !newSchema) return;
    if (!oldSchema) {
      this.add(
        direction === 'request' && resolve(this.after, after).required ? 'breaking' : 'compatible',
        where,
        `${direction} body added`,
      );
      return;
    }
    if (!newSchema) {
      this.add('breaking', where, `${direction} body removed`);
      return;
    }
    if (direction === 'request' && !resolve(this.before, before).required && resolve(this.after, after).required)
      this.add('breaking', where, 'request body now required');
    this.schema(oldSchema, newSchema, where, direction);
  }

  operation(before: Operation, after: Operation): void {
    const label = `${after.method.toUpperCase()} ${after.path} (${after.key})`;
    if (before.method !== after.method || before.path !== after.path) {
      const documented = before.operation['x-provisional'] !== true;
      this.add(
        documented ? 'breaking' : 'compatible',
        label,
        `method or path changed from ${before.method.toUpperCase()} ${before.path}${documented ? '' : ' (provisional route)'}`,
      );
    }
    this.parameters(before, after, label);
    this.body(before.operation.requestBody, after.operation.requestBody, `${label} request body`, 'request');
    const oldResponses = (before.operation.responses ?? {}) as Json;
    const newResponses = (after.operation.responses ?? {}) as Json;
    for (const status of Object.keys(oldResponses)) {
      if (!(status in newResponses)) this.add('breaking', label, `status ${status} removed`);
      else this.body(oldResponses[status], newResponses[status], `${label} response ${status}`, 'response');
    }
    for (const status of Object.keys(newResponses)) {
      if (status in oldResponses) continue;
      if (errorStatus.test(status))
        this.add('compatible', label, `status ${status} added (an error answer newly documented; clients already handle problems)`);
      else this.add('breaking', label, `status ${status} added (changed status codes)`);
    }
  }
}

function majorOf(version: unknown): number {
  const match = /^v?(\d+)/.exec(String(version ?? ''));
  return match ? Number(match[1]) : 0;
}

export function diffSpecs(before: Json, after: Json): DiffResult {
  const differ = new Differ(before, after);
  const oldOperations = operationsOf(before);
  const newOperations = operationsOf(after);
  for (const [key, operation] of oldOperations) {
    const next = newOperations.get(key);
    if (next) differ.operation(operation, next);
    else differ.add('breaking', `${operation.method.toUpperCase()} ${operation.path} (${key})`, 'operation removed');
  }
  for (const [key, operation] of newOperations) {
    if (!oldOperations.has(key)) differ.add('compatible', `${operation.method.toUpperCase()} ${operation.path} (${key})`, 'new operation');
  }
  const oldWebhooks = (before.webhooks ?? {}) as Json;
  const newWebhooks = (after.webhooks ?? {}) as Json;
  for (const type of Object.keys(oldWebhooks)) {
    if (!(type in newWebhooks)) differ.add('breaking', `webhook ${type}`, 'event type removed');
    // A delivery is read by the receiver, like a response.
    else
      differ.body(
        (resolve(before, oldWebhooks[type]).post as Json | undefined)?.requestBody,
        (resolve(after, newWebhooks[type]).post as Json | undefined)?.requestBody,
        `webhook ${type} payload`,
        'response',
      );
  }
  for (const type of Object.keys(newWebhooks)) if (!(type in oldWebhooks)) differ.add('compatible', `webhook ${type}`, 'new event type');
  const breaking = differ.changes.some((change) => change.classification === 'breaking');
  const oldVersion = String((before.info as Json | undefined)?.version ?? '');
  const newVersion = String((after.info as Json | undefined)?.version ?? '');
  return {
    changes: differ.changes,
    breaking,
    oldVersion,
    newVersion,
    majorRaised: majorOf(newVersion) > majorOf(oldVersion),
    staleCorrections: [],
  };
}

/** Whether the diff fails (`contrato diff` exits 1): a breaking change without a new major, or a stale correction. */
export function diffFails(result: DiffResult): boolean {
  return (result.breaking && !result.majorRaised) || result.staleCorrections.length > 0;
}

const labels: Record<Classification, string> = { breaking: 'BREAKING  ', correction: 'CORRECTION', compatible: 'compatible' };
const order: Record<Classification, number> = { breaking: 0, correction: 1, compatible: 2 };

/**
 * The report `contrato diff` prints: one line per change, breaking first, then corrections (with their
 * reason), then compatible ones; a line per stale correction; the verdict.
 */
export function formatDiff(result: DiffResult): string {
  const sorted = [...result.changes].sort((a, b) => order[a.classification] - order[b.classification]);
  const lines = sorted.map(
    (change) => `${labels[change.classification]} ${change.where}: ${change.change}${change.reason ? ` — ${change.reason}` : ''}`,
  );
  const stale = result.staleCorrections.map(
    (correction) => `STALE      ${correction.where}: ${correction.change} — a listed correction that no longer occurs; remove it`,
  );
  const count = (classification: Classification): number =>
    result.changes.filter((change) => change.classification === classification).length;
  const corrected = count('correction') > 0 ? `, ${count('correction')} correction(s) accepted` : '';
  const verdict = result.breaking
    ? result.majorRaised
      ? `${count('breaking')} breaking change(s), allowed: the major version went from ${result.oldVersion} to ${result.newVersion}${corrected}`
      : `${count('breaking')} breaking change(s) without a new major version (${result.oldVersion} → ${result.newVersion})${corrected}`
    : `no breaking change (${count('compatible')} compatible${corrected})`;
  const staleVerdict =
    stale.length > 0 ? [`${stale.length} stale correction(s): the corrections file lists what the diff no longer reports`] : [];
  return [...lines, ...stale, verdict, ...staleVerdict].join('\n');
}
