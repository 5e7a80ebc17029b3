/**
 * `contrato verify`: every operation of an interface judged at a base URL, from the contract alone. The
 * operations run producers first (a consumer of a Link Object after the operation that makes what it needs;
 * a removal after the other consumers), each through its checks: the valid request, then the requests breaking
 * one rule, the idempotency replay, the paging walk; then the token checks and the flows of section 3.
 */
import { readFileSync } from 'node:fs';
import { bundledSpecPath, loadInterface } from '../checks/registry.js';
import { findDefinition } from '../interfaces.js';
import type { OperationInfo } from '../runtime/contract.js';
import type { RateLimit } from '../runtime/rate-limiter.js';
import { withoutTrailingSlashes } from '../runtime/text.js';
import type { TlsOptions } from '../runtime/transport.js';
import { ConfigurationError } from '../runtime/errors.js';
import { idempotencyChecks } from './checks/idempotency.js';
import { invalidRequests } from './checks/invalid.js';
import { pagingChecks } from './checks/paging.js';
import { tokenChecks } from './checks/tokens.js';
import { producersOf, validRequest } from './checks/valid.js';
import type { OperationEntry, RunContext } from './checks/context.js';
import { createSeededRandom } from '../sandbox/random.js';
import { controlPlaneAt } from './control.js';
import { runFlows } from './flows/index.js';
import { Judge } from './judge.js';
import { locationTarget } from './locations.js';
import type { CheckResult, ProgressEvent, VerifyReport } from './model.js';
import { maskResult } from './mask.js';
import { loadRequests, type RequestData } from './requests.js';
import { type Credential, VerifySession } from './session.js';

export interface VerifyOptions {
  /** An interface of src/interfaces.ts (its documents are judged together: `pix` includes its payload locations). */
  readonly interfaceName: string;
  readonly baseUrl: string;
  readonly credential: Credential;
  readonly tls?: TlsOptions | undefined;
  readonly allowWrites: boolean;
  /** The child account a BaaS credential operates, sent in the header each operation declares for it (x-account-id). */
  readonly accountId?: string | undefined;
  /** Operations or tags to run (none: all). */
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly seed: string;
  /** Requests per second at most; undefined: the interface's published limits (section 8). */
  readonly ratePerSecond?: number | undefined;
  readonly timeoutMs?: number;
  readonly onProgress?: (event: ProgressEvent) => void;
}

const removal = (info: OperationInfo): boolean => {
  const verb = info.operationId.slice(info.operationId.lastIndexOf('.') + 1).toLowerCase();
  return info.method === 'delete' || ['delete', 'cancel', 'remove'].includes(verb) || verb.startsWith('unlink');
};

/**
 * Table order, but every producer before its consumers, and the removals (delete, cancel, unlink) after every
 * other operation: what a run made stays there for every read of it (a payload location read after its charge).
 */
export function runOrder(operations: ReadonlyMap<string, { readonly info: OperationInfo; readonly data: RequestData }>): string[] {
  const ids = [...operations.keys()];
  const before = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  for (const [producer, { data }] of operations)
    for (const link of data.links)
      if (operations.has(link.operationId) && link.operationId !== producer) before.get(link.operationId)!.add(producer);
  const order: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (id: string): void => {
    if (placed.has(id) || visiting.has(id)) return;
    visiting.add(id);
    for (const earlier of before.get(id) ?? []) place(earlier);
    visiting.delete(id);
    placed.add(id);
    order.push(id);
  };
  for (const id of ids) if (!removal(operations.get(id)!.info)) place(id);
  // A removal of what a later producer made goes first: an invoice is cancelled before the key it charges is deleted.
  const producerAt = (id: string): number =>
    Math.max(
      -1,
      ...[...operations]
        .filter(([, { data }]) => data.links.some((link) => link.operationId === id))
        .map(([producer]) => order.indexOf(producer)),
    );
  const removals = ids.filter((id) => !placed.has(id)).sort((a, b) => producerAt(b) - producerAt(a));
  for (const id of removals) place(id);
  return order;
}

function selected(info: OperationInfo, tags: readonly string[], options: VerifyOptions): boolean {
  const names = [info.operationId, info.group, ...tags];
  if (options.only && options.only.length > 0 && !options.only.some((name) => names.includes(name))) return false;
  return !options.skip?.some((name) => names.includes(name));
}

function tagsOf(bundle: Record<string, unknown>, info: OperationInfo): string[] {
  const item = (bundle.paths as Record<string, Record<string, { tags?: string[] }>> | undefined)?.[info.path];
  return item?.[info.method]?.tags ?? [];
}

export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const definition = findDefinition(options.interfaceName);
  if (!definition) throw new ConfigurationError(`unknown interface ${options.interfaceName}`);
  const started = Date.now();
  const baseUrl = withoutTrailingSlashes(options.baseUrl);
  const modules = await loadInterface(definition.name);
  const bundles = new Map<string, Record<string, unknown>>();
  const documentOf = new Map<string, string>();
  const operations = new Map<string, OperationEntry>();
  const tagsById = new Map<string, string[]>();
  definition.documents.forEach((document, index) => {
    const bundle = JSON.parse(readFileSync(bundledSpecPath(document.name), 'utf8')) as Record<string, unknown>;
    bundles.set(document.name, bundle);
    for (const [id, data] of Object.entries(loadRequests(document.name))) {
      const info = modules.operationTable[id];
      if (!info) continue;
      documentOf.set(id, document.name);
      tagsById.set(id, tagsOf(bundle, info));
      // Another document (payload locations) is read at an address an answer gives: locations.ts finds it.
      operations.set(id, { info, data, document: document.name, baseUrl: index === 0 ? baseUrl : '' });
    }
  });
  const rateLimits: readonly RateLimit[] =
    options.ratePerSecond !== undefined
      ? options.ratePerSecond > 0
        ? [{ limit: options.ratePerSecond, intervalMs: 1000 }]
        : []
      : (definition.client.defaultRateLimits ?? []);
  const session = new VerifySession({
    definition,
    baseUrl,
    credential: options.credential,
    operations: modules.operationTable,
    tls: options.tls,
    timeoutMs: options.timeoutMs ?? 15_000,
    rateLimits,
  });
  const results: CheckResult[] = [];
  const emit = options.onProgress ?? (() => undefined);
  const judge = new Judge(
    modules,
    (document) => bundles.get(document)! as never,
    (id) => documentOf.get(id)!,
    baseUrl,
  );
  const control = await controlPlaneAt(baseUrl, session.timedSend, options.tls);
  const context: RunContext = {
    interfaceName: definition.name,
    session,
    judge,
    credential: options.credential,
    allowWrites: options.allowWrites,
    accountId: options.accountId,
    control,
    // The sandbox's seeded generator: the same seed draws the same ids, keys and variants.
    random: createSeededRandom(options.seed).next,
    operations,
    made: new Map(),
    sentArgs: new Map(),
    record: (result) => {
      const masked = maskResult(result, session.secrets());
      results.push(masked);
      emit({ kind: 'result', result: masked });
    },
  };
  const order = runOrder(operations);
  emit({ kind: 'start', operations: order });
  try {
    for (const id of order) {
      const entry = operations.get(id)!;
      emit({ kind: 'operation', operationId: id });
      if (!selected(entry.info, tagsById.get(id) ?? [], options)) {
        context.record({
          operationId: id,
          kind: 'valid',
          rule: 'example accepted',
          verdict: 'skipped',
          reason: 'left out by --only or --skip',
          exchanges: [],
        });
        continue;
      }
      if (entry.baseUrl === '') {
        const located = locationTarget(context, entry.info);
        if (!located) {
          context.record({
            operationId: id,
            kind: 'valid',
            rule: 'example accepted',
            verdict: 'skipped',
            reason: `read at a location an answer gives, and no ${producersOf(context, id).length > 0 ? 'producer' : 'operation'} of this run answered one`,
            exchanges: [],
          });
          continue;
        }
        operations.set(id, {
          ...entry,
          baseUrl: located.baseUrl,
          data: { ...entry.data, request: { ...entry.data.request, path: located.path } },
        });
      }
      await validRequest(context, id);
      await invalidRequests(context, id);
      await idempotencyChecks(context, id);
      await pagingChecks(context, id);
    }
    await tokenChecks(context, control);
    await runFlows(context, control, (id) => selected(operations.get(id)!.info, tagsById.get(id) ?? [], options));
  } finally {
    await session.close();
    await control?.control.close();
  }
  const report: VerifyReport = {
    interface: definition.name,
    baseUrl,
    seed: options.seed,
    allowWrites: options.allowWrites,
    controlPlane: control !== null,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    operations: order,
    results,
  };
  emit({ kind: 'end', report });
  return report;
}
