/**
 * Steps before anything is sent: header names in the spec's spelling, then the request checked against
 * the operation's schemas and its cross-field rules. A call that fails them never leaves the machine.
 */
import type { OperationInfo } from '../contract.js';
import { runCrossFieldChecks } from '../cross-field.js';
import { RequestValidationError, type ValidationIssue, withCallContext } from '../errors.js';
import { type CallArgs, contextOf, type OperationValidatorSet, type Step } from '../pipeline.js';
import { check } from '../validation.js';

const parameterLocations = ['path', 'query', 'header'] as const;

/** Binary parts stand in as a string while the fields of a multipart body are checked against the schema. */
function validatableBody(info: OperationInfo, body: unknown): unknown {
  if (info.requestBody?.mediaType !== 'multipart/form-data' || typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, value instanceof Blob || value instanceof Uint8Array ? '(binary)' : value]),
  );
}

/** The schema issues of a call's arguments (parameters by location, then the body). */
export function validateRequest(
  info: OperationInfo,
  validators: OperationValidatorSet,
  args: CallArgs,
  patterns: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const location of parameterLocations) {
    const validator = validators.parameters[location];
    const given = args[location];
    if (validator) issues.push(...check(validator, given ?? {}, `/${location}`, patterns));
    else if (given && Object.keys(given).length > 0 && location !== 'header') {
      issues.push({ pointer: `/${location}`, rule: 'additionalProperties', message: `takes no ${location} parameters` });
    }
  }
  if (validators.body) {
    if (args.body !== undefined) issues.push(...check(validators.body, validatableBody(info, args.body), '/body', patterns));
    else if (info.requestBody?.required) issues.push({ pointer: '/body', rule: 'required', message: 'is required' });
  } else if (args.body !== undefined) {
    issues.push({ pointer: '/body', rule: 'additionalProperties', message: 'this operation takes no body' });
  }
  return issues;
}

/** Request header names are case-insensitive: the caller's are renamed to the spelling the spec declares. */
export const canonicalHeadersStep: Step = {
  name: 'canonical-headers',
  run(call, next) {
    const { header } = call.args;
    if (!header) return next(call);
    const declared = new Map(call.info.parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p.name]));
    const renamed = Object.fromEntries(Object.entries(header).map(([name, value]) => [declared.get(name.toLowerCase()) ?? name, value]));
    return next({ ...call, args: { ...call.args, header: renamed } });
  },
};

/**
 * Schema first, then the rules across fields (or against today) once the schema passed. `scrub` removes
 * secrets and masks documents in what the issues quote; `now` is the present instant of date rules.
 */
export function validateStep(scrub: <T>(value: T) => T, now: () => Date): Step {
  const refuse = (call: Parameters<Step['run']>[0], issues: readonly ValidationIssue[]): never => {
    const scrubbed = issues.map((issue) => ({
      ...issue,
      message: scrub(issue.message),
      ...(issue.value === undefined ? {} : { value: scrub(issue.value) }),
    }));
    throw withCallContext(new RequestValidationError(call.info.operationId, scrubbed), contextOf(call));
  };
  return {
    name: 'validate',
    run(call, next) {
      const { validators, patterns, crossField } = call.checks;
      const schemaIssues = validateRequest(call.info, validators, call.args, patterns);
      if (schemaIssues.length > 0) refuse(call, schemaIssues);
      const ruleIssues = runCrossFieldChecks(crossField, call.args, { now: now() });
      if (ruleIssues.length > 0) refuse(call, ruleIssues);
      return next(call);
    },
  };
}
