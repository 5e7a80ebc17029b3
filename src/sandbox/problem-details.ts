/**
 * How interfaces A and D refuse (section 7.1): an RFC 7807 body whose `type` is `{base_url}/errors/<type>`,
 * `status` repeating the HTTP status and a `correlationId` (uuid) to quote to support. The offending members
 * are named in `detail`: the shared Problem schema lists no member for them, and strict mode refuses one it
 * does not list. A request the validators refuse is a 400 `invalid-parameters` naming each field and rule.
 */
import type { ValidationIssue } from '../runtime/errors.js';
import type { ProblemContext, ProblemFormat, SandboxAnswer, SandboxProblem } from './contract.js';

/** The title of a problem of each status (shared with the generic module). */
export const problemTitles: Readonly<Record<number, string>> = {
  400: 'Invalid parameters',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Content too large',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  500: 'Internal error',
  501: 'Not implemented',
  503: 'Service unavailable',
};

const problemJson = 'application/problem+json';

/** Issues named in one detail: a body of thousands of unknown members is refused in a detail of bounded size. */
export const maxNamedIssues = 50;
/** The longest text a problem repeats from a request (a member name, a pointer, a value): the caller chose its length. */
export const maxEchoLength = 300;

/** `text` cut to maxEchoLength characters, marked with an ellipsis when cut. */
export function clipped(text: string): string {
  return text.length > maxEchoLength ? `${text.slice(0, maxEchoLength)}…` : text;
}

/** The issues as `pointer: message` lines joined with `; `, the first maxNamedIssues of them and a count of the rest. */
export function namedIssues(issues: readonly { readonly pointer: string; readonly message: string }[]): string {
  const named = issues.slice(0, maxNamedIssues).map(({ pointer, message }) => `${clipped(pointer || '/')}: ${clipped(message)}`);
  return issues.length > maxNamedIssues ? `${named.join('; ')}; and ${issues.length - maxNamedIssues} more` : named.join('; ');
}

/** The problem format of interfaces A and D at `{base_url}` (the module's sandbox address). */
export function problemDetails(): ProblemFormat {
  const answer = (status: number, type: string, detail: string, context: ProblemContext): SandboxAnswer => ({
    status,
    contentType: problemJson,
    body: {
      type: `${context.baseUrl}/errors/${type}`,
      title: problemTitles[status] ?? 'Error',
      status,
      detail,
      correlationId: context.correlationId,
    },
  });
  return {
    problem(problem: SandboxProblem, context): SandboxAnswer {
      // The offending members go in detail: the shared Problem schema lists no member for them.
      const named = problem.violations.map(({ pointer, message }) => `${pointer || '/'}: ${message}`);
      const detail =
        named.length > 0 && !named.every((line) => problem.detail.includes(line))
          ? `${problem.detail} (${namedIssues(problem.violations)})`
          : problem.detail;
      const base = answer(problem.status, problem.errorType, detail, context);
      return { ...base, headers: problem.headers };
    },
    invalid(issues: readonly ValidationIssue[], context): SandboxAnswer {
      return answer(400, 'invalid-parameters', namedIssues(issues), context);
    },
    types: {
      unauthorized: 'unauthorized',
      forbidden: 'forbidden',
      notFound: 'not-found',
      tooManyRequests: 'rate-limit-exceeded',
      unavailable: 'service-unavailable',
      tooLarge: 'payload-too-large',
      timedOut: 'request-timeout',
      internal: 'internal-error',
    },
  };
}
