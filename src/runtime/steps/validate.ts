/**
 * Steps before anything is sent: header names in the spec's spelling, then the request checked against
 * the operation's schemas and its cross-field rules. A call that fails them never leaves the machine.
 */
import { requestIssues } from '../contract-check.js';
import { RequestValidationError, type ValidationIssue, withCallContext } from '../errors.js';
import { contextOf, type Step } from '../pipeline.js';

export { validateRequest } from '../contract-check.js';

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
      const issues = requestIssues(call.info, call.checks, call.args, now());
      if (issues.length > 0) refuse(call, issues);
      return next(call);
    },
  };
}
