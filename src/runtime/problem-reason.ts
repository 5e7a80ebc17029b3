/**
 * The server's reason in an error body, whatever shape the interface's refusals take, for the message of
 * the error a call ends with.
 */

/** RFC 7807 problem details (section 7.1; section 7.2 adds `violacoes` on interface B). */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly correlationId?: string;
  readonly violacoes?: ReadonlyArray<{ readonly razao?: string; readonly propriedade?: string; readonly valor?: string }>;
  readonly [extension: string]: unknown;
}

/** Whether an error body is an RFC 7807 problem: an object with any of its members `type`, `title`, `status`. */
export function isProblem(body: unknown): body is ProblemDetails {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && ('title' in body || 'type' in body || 'status' in body);
}

/** How much of the server's reason a message repeats (the error's body holds all of it). */
const reasonLimit = 400;
/** Violations a message names; `violacoes` or `body` holds them all. */
const violationsInMessage = 5;

const textMember = (body: Readonly<Record<string, unknown>>, name: string): string | undefined => {
  const value = body[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** `property: reason` of each violation a body lists (B's `violacoes`, or `violations` of pointer and message), never its value. */
function violationsOf(body: Readonly<Record<string, unknown>>): string[] {
  const list = Array.isArray(body.violacoes) ? body.violacoes : Array.isArray(body.violations) ? body.violations : [];
  const named = list.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const item = entry as Record<string, unknown>;
    const where = textMember(item, 'propriedade') ?? textMember(item, 'pointer');
    const why = textMember(item, 'razao') ?? textMember(item, 'message');
    return why ? [where ? `${where}: ${why}` : why] : [];
  });
  const more = named.length - violationsInMessage;
  return more > 0 ? [...named.slice(0, violationsInMessage), `and ${more} more`] : named;
}

/**
 * The server's reason in an error body, read by its shape so that every interface's errors say it: an RFC
 * 7807 problem (section 7: A, B, D) gives `title: detail`; a JSON object of no declared format (interface C
 * shows none, section 7.3) its `error` code and `message` (or `error_description`); either adds the
 * violations it lists (property and reason, never the value). A text body gives its first line. Undefined
 * when the body says nothing. The body was scrubbed of secrets before it got here.
 */
export function reasonOf(body: unknown): string | undefined {
  let reason: string | undefined;
  if (typeof body === 'string') {
    const line = body
      .split('\n')
      .find((each) => each.trim() !== '')
      ?.trim();
    // An HTML error page of a proxy says nothing a line can carry.
    reason = line && !line.startsWith('<') ? line : undefined;
  } else if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = body as Readonly<Record<string, unknown>>;
    const said = isProblem(record)
      ? [textMember(record, 'title'), textMember(record, 'detail')]
      : [textMember(record, 'error'), textMember(record, 'message') ?? textMember(record, 'error_description')];
    const summary = said.filter((part): part is string => part !== undefined).join(': ');
    const violations = violationsOf(record).filter((violation) => !summary.includes(violation));
    reason = [summary, violations.join('; ')].filter(Boolean).join(' — ') || undefined;
  }
  return reason && reason.length > reasonLimit ? `${reason.slice(0, reasonLimit)}…` : reason;
}
