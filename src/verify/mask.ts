/**
 * What `contrato verify` keeps of an exchange, made safe to put in a report: the engine calls `maskExchange`
 * (or `maskResult`) ONCE, on each exchange, before a result is stored. Every reader downstream (the live view,
 * the summary, the JUnit and the HTML reports) trusts that and renders what it is given: none of them masks
 * again, so an exchange stored unmasked is printed unmasked.
 *
 * On top of the runtime's `redact` (secret members, secret values in any encoding, Authorization
 * credentials, CPF/CNPJ): credential headers become `[masked]` whatever their case, and parameters named
 * like a credential are masked in URLs and in form-encoded text, whatever the length of their value (redact
 * scrubs by value only secrets of 8 characters or more).
 */
import { credentialName, redact } from '../runtime/logging.js';
import type { CheckResult, Exchange, Received, SentRequest } from './model.js';

export const maskedValue = '[masked]';

/** Headers whose whole value is a credential, compared lowercase. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'svc-token', 'x-api-key', 'cookie', 'set-cookie']);

/** Headers whose value is a URL: a token may ride in its query (a redirect to a callback, a `Location`). */
const urlHeaders = new Set(['location', 'content-location', 'refresh']);

/** Names of URL and form parameters that carry a credential: client_secret, token, access_token, password, api_key… */
const credentialParameter = new RegExp(`${credentialName.source}|api[-_]?key|^apikey$|^key$|signature|^sig$|^code$`, 'i');

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * `name=value` pairs of a query, a fragment or a form-encoded text with the value of each credential
 * parameter replaced. The text is edited in place, not re-encoded: everything else stays as it was sent.
 */
function maskParameters(text: string): string {
  // Split at single delimiters and read each piece by position: no pattern here can backtrack on hostile text.
  return text
    .split(/([?&#;\s])/)
    .map((piece) => {
      const equals = piece.indexOf('=');
      if (equals <= 0) return piece;
      const name = piece.slice(0, equals);
      if (/["'<>]/.test(name) || !credentialParameter.test(decodedName(name))) return piece;
      const rest = piece.slice(equals + 1);
      const end = rest.search(/["'<>]/);
      return `${name}=${maskedValue}${end < 0 ? '' : rest.slice(end)}`;
    })
    .join('');
}

/** Password of `user:password@host` masked (the user name stays: it tells which account was used). */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/i, `$1:${maskedValue}@`);
}

/** Text made safe: parameters named like credentials, then redact (secret values, credentials, documents). */
function maskText(text: string, secrets: readonly string[]): string {
  return String(redact(maskParameters(text), { secrets }));
}

function maskUrl(url: string, secrets: readonly string[]): string {
  return maskText(maskUserInfo(url), secrets);
}

function maskHeaders(headers: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const safe = credentialHeaders.has(lower)
      ? maskedValue
      : urlHeaders.has(lower)
        ? maskUrl(value, secrets)
        : // A header named like a credential (x-client-secret) is replaced by redact, as a member would be.
          String((redact({ [name]: value }, { secrets }) as Record<string, unknown>)[name]);
    Object.defineProperty(masked, name, { value: safe, enumerable: true, writable: true, configurable: true });
  }
  return masked;
}

/**
 * Every text of a body (redact's fresh copy) with its credential parameters masked: a form body, or a query
 * echoed in a member. Iterative, as redact is, so no depth overflows the stack; redact's copy holds no cycle.
 */
function maskParametersEverywhere(body: unknown): unknown {
  if (typeof body === 'string') return maskParameters(body);
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const container = stack.pop();
    if (typeof container !== 'object' || container === null) continue;
    const record = container as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (typeof child === 'string') record[key] = maskParameters(child);
      else if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return body;
}

function maskBody(body: unknown, secrets: readonly string[]): unknown {
  // URLSearchParams has no own members: redact would copy it as `{}` and the report would lose the form.
  const plain = body instanceof URLSearchParams ? body.toString() : body;
  return maskParametersEverywhere(redact(plain, { secrets }));
}

function maskRequest(request: SentRequest, secrets: readonly string[]): SentRequest {
  const masked = { method: request.method, url: maskUrl(request.url, secrets), headers: maskHeaders(request.headers, secrets) };
  return 'body' in request ? { ...masked, body: maskBody(request.body, secrets) } : masked;
}

function maskReceived(received: Received, secrets: readonly string[]): Received {
  if (received.kind === 'no-answer') return { kind: 'no-answer', reason: received.reason, message: maskText(received.message, secrets) };
  const masked: Received = { kind: 'answer', status: received.status, headers: maskHeaders(received.headers, secrets) };
  return {
    ...masked,
    ...('body' in received ? { body: maskBody(received.body, secrets) } : {}),
    ...(received.unparsable !== undefined ? { unparsable: maskText(received.unparsable, secrets) } : {}),
  };
}

/**
 * A copy of the exchange safe to put in a report; the exchange given is not changed. `secrets` are the
 * exact values to scrub wherever they appear (client secret, tokens issued, a Basic credential).
 * The engine applies it once, before a result is stored: the reports do not mask again.
 */
export function maskExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  return {
    request: maskRequest(exchange.request, secrets),
    received: maskReceived(exchange.received, secrets),
    durationMs: exchange.durationMs,
  };
}

/**
 * A result with its exchanges masked and its reason scrubbed too (a reason may quote what the target
 * answered). What the engine stores; the reports render it as it is.
 */
export function maskResult(result: CheckResult, secrets: readonly string[]): CheckResult {
  return {
    ...result,
    reason: maskText(result.reason, secrets),
    exchanges: result.exchanges.map((exchange) => maskExchange(exchange, secrets)),
  };
}
