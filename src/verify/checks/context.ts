/** What every check of a run shares: the target, the judge, the requests, what earlier calls made, the options. */
import { parameterValue } from '../../runtime/contract-check.js';
import type { OperationInfo } from '../../runtime/contract.js';
import type { CallArgs } from '../../runtime/pipeline.js';
import type { ControlPlane } from '../control.js';
import type { Judge } from '../judge.js';
import type { CheckKind, CheckResult, Exchange, Verdict } from '../model.js';
import { argsOf, type Made, type RequestData } from '../requests.js';
import type { Credential, VerifySession } from '../session.js';

export interface OperationEntry {
  readonly info: OperationInfo;
  readonly data: RequestData;
  /** The spec document it belongs to. */
  readonly document: string;
  /** Where it is sent; '' for an operation read at a location an answer gives (locations.ts). */
  readonly baseUrl: string;
}

export interface RunContext {
  readonly interfaceName: string;
  readonly session: VerifySession;
  readonly judge: Judge;
  readonly credential: Credential;
  readonly allowWrites: boolean;
  /** The child account a BaaS credential operates (`--account-id`), sent in the header an operation declares for it. */
  readonly accountId: string | undefined;
  readonly random: () => number;
  /** The sandbox's control plane, when the target has one (the platform's moves are asked of it). */
  readonly control: ControlPlane | null;
  /** The operations of the interface by id, with the document each belongs to and its base URL. */
  readonly operations: ReadonlyMap<string, OperationEntry>;
  /** What each operation's valid request made at the target in this run (its last success). */
  readonly made: Map<string, Made>;
  /** The arguments of each operation's valid request as sent (for the checks that vary it). */
  readonly sentArgs: Map<string, CallArgs>;
  readonly record: (result: CheckResult) => void;
}

/** The example request of an operation as this run sends it: the caller's credential, the child account it operates. */
export function exampleArgs(context: RunContext, operationId: string): CallArgs {
  const { info, data } = context.operations.get(operationId)!;
  const args = argsOf(data, context.credential);
  if (context.accountId === undefined || !info.accountHeader) return args;
  const type = info.parameters.find((parameter) => parameter.name === info.accountHeader)?.type ?? 'string';
  return { ...args, header: { ...args.header, [info.accountHeader]: parameterValue(context.accountId, type) } };
}

/** Whether an operation creates, changes or pays anything (everything but reads and the token request). */
export const isWrite = (info: OperationInfo): boolean => !['get', 'head'].includes(info.method) && info.secured;

export function result(
  operationId: string,
  kind: CheckKind,
  rule: string,
  verdict: Verdict,
  reason: string,
  exchanges: readonly Exchange[] = [],
): CheckResult {
  return { operationId, kind, rule, verdict, reason, exchanges };
}

/** A pass or a fail from a judge's verdict line. */
export const judged = (
  operationId: string,
  kind: CheckKind,
  rule: string,
  failure: string | null,
  exchanges: readonly Exchange[],
  passed: string,
): CheckResult => result(operationId, kind, rule, failure === null ? 'pass' : 'fail', failure ?? passed, exchanges);
