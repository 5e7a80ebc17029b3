/** What the drift cases are made of: matchers of requests and answers, and drifts built from them. */
import type { Drift, ProxiedAnswer, ProxiedRequest } from './drift-proxy.js';

export const is2xx = (answer: ProxiedAnswer): boolean => answer.status >= 200 && answer.status < 300;
export const pathOf = (request: ProxiedRequest): string => request.path.split('?')[0]!;
export const on =
  (method: string, path: RegExp) =>
  (request: ProxiedRequest): boolean =>
    request.method === method && path.test(pathOf(request));

/** A drift on the answers of one operation: `change` sees the ones `when` selects (2xx by default). */
export function answers(
  method: string,
  path: RegExp,
  change: (answer: ProxiedAnswer) => ProxiedAnswer | { reset: true } | { late: ProxiedAnswer; afterMs: number },
  when: (answer: ProxiedAnswer) => boolean = is2xx,
): () => Drift {
  return () => ({ matches: on(method, path), answer: (answer) => (when(answer) ? change(answer) : answer) });
}

export const rules = /^(required|maxLength|pattern|format|maximum|minimum|additionalProperties)\b/;
export const garbage = Buffer.from('<<not json>>');

/** The token in a request (Authorization: Bearer), if any. */
export const bearerOf = (request: ProxiedRequest): string | undefined => /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * A drift accepting tokens it should refuse: it learns the session's token (the first one presented) and which
 * token endpoint issued each token, and forwards with the session's token any request `swap` selects.
 */
export function tokenDrift(swap: (request: ProxiedRequest, token: string | undefined, issuer: string | undefined) => boolean): () => Drift {
  return () => {
    let session: string | undefined;
    const issuers = new Map<string, string>();
    return {
      matches: (request) => !request.path.startsWith('/_sandbox'),
      request: (request) => {
        const token = bearerOf(request);
        session ??= token;
        if (session === undefined || /\/(oauth|auth)\/token$/.test(pathOf(request))) return request;
        if (token === session || !swap(request, token, token === undefined ? undefined : issuers.get(token))) return request;
        return { ...request, headers: { ...request.headers, authorization: `Bearer ${session}` } };
      },
      answer: (answer, request) => {
        // Every long string of a token answer (access_token, data.accessToken, …) is a token it issued.
        if (/\/(oauth|auth)\/token$/.test(pathOf(request)) && is2xx(answer))
          JSON.parse(answer.body.toString('utf8'), (_name, value: unknown) => {
            if (typeof value === 'string' && value.length >= 16) issuers.set(value, pathOf(request));
            return value;
          });
        return answer;
      },
    };
  };
}

/** The idempotency header of a request, if any. */
export const keyOf = (request: ProxiedRequest): string | undefined =>
  Object.entries(request.headers).find(([name]) => /idempotency/i.test(name))?.[1];

/** A drift on the key's rule of one operation: `change` sees every later call under a key, with the first call's answer. */
export function idempotencyDrift(
  method: string,
  path: RegExp,
  change: (answer: ProxiedAnswer, first: { body: Buffer; answer: ProxiedAnswer }, request: ProxiedRequest) => ProxiedAnswer,
): () => Drift {
  return () => {
    const firsts = new Map<string, { body: Buffer; answer: ProxiedAnswer }>();
    return {
      matches: on(method, path),
      answer: (answer, request) => {
        const key = keyOf(request);
        if (key === undefined) return answer;
        const first = firsts.get(key);
        if (!first) {
          if (is2xx(answer)) firsts.set(key, { body: request.body, answer });
          return answer;
        }
        return change(answer, first, request);
      },
    };
  };
}

/** Replaces the first free-text member of an answer (one it can change without leaving its schema). */
export function otherText(body: Record<string, unknown>): void {
  const name = ['description', 'descricao', 'remittanceInformation', 'name'].find((each) => typeof body[each] === 'string');
  if (name) body[name] = `${String(body[name]).slice(0, 20)} (replayed)`;
  else if (typeof body.data === 'object' && body.data !== null) otherText(body.data as Record<string, unknown>);
}

/** A drift answering every refusal (4xx) of an operation with the last success it gave. */
export function refusalsAccepted(method: string, path: RegExp): () => Drift {
  return () => {
    let success: ProxiedAnswer | undefined;
    return {
      matches: on(method, path),
      answer: (answer) => {
        if (is2xx(answer)) success = answer;
        return answer.status >= 400 && answer.status < 500 && success ? success : answer;
      },
    };
  };
}

/**
 * A cob removed by its receiver (REMOVIDA_PELO_USUARIO_RECEBEDOR) stays changeable: a later revision of it,
 * which section 3 refuses with 400, is answered 200 with the cob as the removal left it.
 */
export function removedRevisedAccepted(): Drift {
  const removals = new Map<string, ProxiedAnswer>();
  return {
    matches: on('PATCH', /^\/pix\/cob\/[^/]+$/),
    answer: (answer, request) => {
      const txid = pathOf(request).split('/').pop()!;
      if (is2xx(answer) && request.body.toString('utf8').includes('REMOVIDA_PELO_USUARIO_RECEBEDOR')) removals.set(txid, answer);
      const removal = removals.get(txid);
      return answer.status === 400 && removal ? { ...removal, status: 200 } : answer;
    },
  };
}
