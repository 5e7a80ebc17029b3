/**
 * How the messages sandbox refuses. Interface C's error body format is not shown (section 7.3), so the
 * sandbox answers a minimal JSON body of its own, not an RFC 7807 problem: `{ error, message }`, and
 * `violations` (JSON pointer and rule, never the value) on a 400. The client reads it as an HttpError
 * carrying this body. A missing or unknown svc-token is a 401 (section 7.3). A login whose body the
 * validators refuse is a 401 as well: the login declares no 400, and a credential it cannot read is not a
 * credential it accepts.
 */
import type { ValidationIssue } from '../../runtime/errors.js';
import type { ProblemFormat, SandboxAnswer, SandboxProblem } from '../contract.js';
import { clipped, maxNamedIssues, namedIssues } from '../problem-details.js';

function answer(
  status: number,
  error: string,
  message: string,
  violations: readonly { pointer: string; message: string }[],
): SandboxAnswer {
  return {
    status,
    body: {
      error,
      message,
      ...(violations.length > 0
        ? {
            violations: violations
              .slice(0, maxNamedIssues)
              .map(({ pointer, message: why }) => ({ pointer: clipped(pointer), message: clipped(why) })),
          }
        : {}),
    },
  };
}

export const messagesProblems: ProblemFormat = {
  problem(problem: SandboxProblem): SandboxAnswer {
    return { ...answer(problem.status, problem.errorType, problem.detail, problem.violations), headers: problem.headers };
  },
  invalid(issues: readonly ValidationIssue[], context): SandboxAnswer {
    const message = namedIssues(issues);
    if (context.operationId === 'auth.login') return answer(401, 'unauthorized', `the login could not be read: ${message}`, []);
    return answer(400, 'invalid-request', message, issues);
  },
  types: {
    unauthorized: 'unauthorized',
    forbidden: 'forbidden',
    notFound: 'not-found',
    tooManyRequests: 'too-many-requests',
    unavailable: 'unavailable',
    tooLarge: 'payload-too-large',
    timedOut: 'request-timeout',
    internal: 'internal-error',
  },
};
