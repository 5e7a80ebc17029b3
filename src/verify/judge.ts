/**
 * The contract's judgment of one exchange, the same as everywhere else in the package: the status declared,
 * the body checked strictly (as its provider must send it: src/checks/strict-response.ts), a problem's
 * status and `type` as section 7 shapes them (src/runtime/contract-check.ts). A check says what it expects
 * (a success, a refusal) and gets one line saying what was wrong, or null.
 */
import { checkHttpAnswer, checksOf } from '../checks/http-check.js';
import type { InterfaceModules } from '../checks/registry.js';
import { responseSchema, strictValidator } from '../checks/strict-response.js';
import { requestIssues } from '../runtime/contract-check.js';
import type { OperationInfo } from '../runtime/contract.js';
import type { ValidationIssue } from '../runtime/errors.js';
import type { CallArgs } from '../runtime/pipeline.js';
import { reasonOf } from '../runtime/problem-reason.js';
import type { CompiledValidator } from '../runtime/validation.js';
import type { Exchange } from './model.js';

type Json = Parameters<typeof strictValidator>[0];

export type Expectation =
  /** A declared 2xx. */
  | 'success'
  /** A declared 4xx (a request breaking a rule, a refused token). */
  | 'refusal'
  /** Any declared status (an example id that may not exist at the target). */
  | 'declared';

const issueLine = (issues: readonly ValidationIssue[]): string =>
  issues
    .slice(0, 3)
    .map((issue) => `${issue.pointer || '/'} ${issue.rule}: ${issue.message}`)
    .join('; ') + (issues.length > 3 ? ` (and ${issues.length - 3} more)` : '');

export class Judge {
  private readonly strict = new Map<string, CompiledValidator | null>();

  constructor(
    readonly modules: InterfaceModules,
    /** The bundle of a spec document. */
    readonly bundle: (document: string) => Json,
    /** The document of an operation. */
    private readonly documentOf: (operationId: string) => string,
    /** The address problem types are compared with (section 7's `{base_url}`). */
    private readonly baseUrl: string,
  ) {}

  private strictValidatorOf(info: OperationInfo, status: string): CompiledValidator | null {
    const key = `${info.operationId} ${status}`;
    if (!this.strict.has(key)) {
      const bundle = this.bundle(this.documentOf(info.operationId));
      const schema = responseSchema(bundle, info.method, info.path, status) ?? responseSchema(bundle, info.method, info.path, 'default');
      this.strict.set(key, schema === null ? null : strictValidator(bundle, schema));
    }
    return this.strict.get(key)!;
  }

  /** What the contract finds wrong with a request (none: it is valid). */
  requestIssues(info: OperationInfo, args: CallArgs): ValidationIssue[] {
    const checks = checksOf(this.modules, { info, pathParameters: {}, concrete: true } as never);
    return requestIssues(info, checks, args, new Date());
  }

  /** Null when the exchange is what `expect` and the contract say; else one line saying what is not. */
  verdict(info: OperationInfo, exchange: Exchange, expect: Expectation): string | null {
    const received = exchange.received;
    if (received.kind === 'no-answer') return `no answer: ${received.message} (${received.reason})`;
    if (received.unparsable !== undefined)
      return `status ${received.status} with a body that is not JSON: ${JSON.stringify(received.unparsable)}`;
    const status = String(received.status);
    const reason = reasonOf(received.body)?.slice(0, 200) ?? '';
    if (expect === 'success' && !/^2\d\d$/.test(status)) return `expected a declared success, got ${status}${reason ? ` (${reason})` : ''}`;
    if (expect === 'refusal' && !/^4\d\d$/.test(status))
      return `expected a declared 4xx refusal, got ${status}${reason ? ` (${reason})` : ''}`;
    const validator = info.jwsPayload !== null && /^2/.test(status) ? null : this.strictValidatorOf(info, status);
    const issues = checkHttpAnswer(
      this.modules,
      info,
      { status, body: received.body },
      { baseUrl: this.baseUrl, strictValidator: validator },
    );
    return issues.length === 0 ? null : `status ${status}: ${issueLine(issues)}`;
  }
}
