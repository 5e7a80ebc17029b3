/**
 * `contrato verify` judges, it does not just run: the sandbox behind a loopback proxy that plants one drift at a
 * time (an undeclared status, a body off its schema, a refusal turned into a success, a token accepted that
 * must not be, an idempotent replay that answers otherwise, a page that lies, a connection reset or late).
 * Each drift is run twice with the same options: passing through, verify finds nothing; with the drift, it
 * fails the check of the kind and rule the drift breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinition } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../../src/runtime/definition.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import type { CheckKind, CheckResult, VerifyReport } from '../../src/verify/model.js';
import { verify } from '../../src/verify/run.js';
import { type Drift, type DriftProxy, type ProxiedAnswer, type ProxiedRequest, startDriftProxy, withJson } from './drift-proxy.js';

interface Case {
  readonly drift: string;
  readonly interface: 'pix' | 'core-banking' | 'accounts';
  readonly only: readonly string[];
  /** A new drift (its own state) for each run. */
  readonly make: () => Drift;
  readonly wantKind: CheckKind;
  readonly wantRule: RegExp;
  /** What the failure's reason must say, where the drift decides it (a timeout, a reset). */
  readonly wantReason?: RegExp;
  readonly timeoutMs?: number;
}

const is2xx = (answer: ProxiedAnswer): boolean => answer.status >= 200 && answer.status < 300;
const pathOf = (request: ProxiedRequest): string => request.path.split('?')[0]!;
const on =
  (method: string, path: RegExp) =>
  (request: ProxiedRequest): boolean =>
    request.method === method && path.test(pathOf(request));

/** A drift on the answers of one operation: `change` sees the ones `when` selects (2xx by default). */
function answers(
  method: string,
  path: RegExp,
  change: (answer: ProxiedAnswer) => ProxiedAnswer | { reset: true } | { late: ProxiedAnswer; afterMs: number },
  when: (answer: ProxiedAnswer) => boolean = is2xx,
): () => Drift {
  return () => ({ matches: on(method, path), answer: (answer) => (when(answer) ? change(answer) : answer) });
}

const rules = /^(required|maxLength|pattern|format|maximum|minimum|additionalProperties)\b/;
const garbage = Buffer.from('<<not json>>');

/** The token in a request (Authorization: Bearer), if any. */
const bearerOf = (request: ProxiedRequest): string | undefined => /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
// The prefix of the malformed token verify presents (src/verify/checks/tokens.ts).
const malformedPrefix = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb250cmF0by12ZXJpZnki';

/**
 * A drift accepting tokens it should refuse: it learns the session's token (the first one presented) and which
 * token endpoint issued each token, and forwards with the session's token any request `swap` selects.
 */
function tokenDrift(swap: (request: ProxiedRequest, token: string | undefined, issuer: string | undefined) => boolean): () => Drift {
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
const keyOf = (request: ProxiedRequest): string | undefined =>
  Object.entries(request.headers).find(([name]) => /idempotency/i.test(name))?.[1];

/** A drift on the key's rule of one operation: `change` sees every later call under a key, with the first call's answer. */
function idempotencyDrift(
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
function otherText(body: Record<string, unknown>): void {
  const name = ['description', 'descricao', 'remittanceInformation', 'name'].find((each) => typeof body[each] === 'string');
  if (name) body[name] = `${String(body[name]).slice(0, 20)} (replayed)`;
  else if (typeof body.data === 'object' && body.data !== null) otherText(body.data as Record<string, unknown>);
}

/** A drift answering every refusal (4xx) of an operation with the last success it gave. */
function refusalsAccepted(method: string, path: RegExp): () => Drift {
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
function removedRevisedAccepted(): Drift {
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

const pixCob = /^\/pix\/cob\/[^/]+$/;
const feeRules = /^\/core-banking\/fee-rules$/;
const coreAccounts = /^\/core-banking\/accounts$/;
const coreAccount = /^\/core-banking\/accounts\/[^/]+$/;
const coreBalance = /^\/core-banking\/accounts\/[^/]+\/balance$/;
const coreInvoices = /^\/core-banking\/accounts\/[^/]+\/invoices$/;

const cases: readonly Case[] = [
  {
    drift: 'a 2xx answered as 299 (undeclared)',
    interface: 'core-banking',
    only: ['accounts.get'],
    make: answers('GET', coreAccount, (answer) => ({ ...answer, status: 299 })),
    wantKind: 'valid',
    wantRule: /^example/,
  },
  {
    drift: 'a 2xx answered as 418',
    interface: 'pix',
    only: ['cob.create'],
    make: answers('POST', pixCob, (answer) => ({ ...answer, status: 418 })),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'a 400 problem with type about:blank',
    interface: 'core-banking',
    only: ['feeRules.create'],
    make: answers(
      'POST',
      feeRules,
      (answer) =>
        withJson(answer, (body) => {
          body.type = 'about:blank';
        }),
      (answer) => answer.status === 400,
    ),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'a 400 problem with the type of another error',
    interface: 'core-banking',
    only: ['feeRules.create'],
    make: answers(
      'POST',
      feeRules,
      (answer) =>
        withJson(answer, (body) => {
          body.type = String(body.type).replace(/[^/]+$/, 'not-found');
        }),
      (answer) => answer.status === 400,
    ),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'a problem whose status member is not the HTTP status',
    interface: 'pix',
    only: ['cob.create'],
    make: answers(
      'POST',
      pixCob,
      (answer) =>
        withJson(answer, (body) => {
          body.status = 422;
        }),
      (answer) => answer.status === 400,
    ),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'a required member missing from the cob answer (txid)',
    interface: 'pix',
    only: ['cob.create'],
    make: answers('POST', pixCob, (answer) =>
      withJson(answer, (body) => {
        delete body.txid;
      }),
    ),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'an unknown member in the strict cob answer',
    interface: 'pix',
    only: ['cob.create'],
    make: answers('POST', pixCob, (answer) =>
      withJson(answer, (body) => {
        body.contratoDesconhecido = 1;
      }),
    ),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'a number member answered as a string (balance)',
    interface: 'core-banking',
    only: ['accounts.balance'],
    make: answers('GET', coreBalance, (answer) =>
      withJson(answer, (body) => {
        body.balance = String(body.balance);
      }),
    ),
    wantKind: 'valid',
    wantRule: /^example/,
  },
  {
    drift: 'a txid off its pattern',
    interface: 'pix',
    only: ['cob.create'],
    make: answers('POST', pixCob, (answer) =>
      withJson(answer, (body) => {
        body.txid = 'not a txid!';
      }),
    ),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'a date-time off its format (calendario.criacao)',
    interface: 'pix',
    only: ['cob.create'],
    make: answers('POST', pixCob, (answer) =>
      withJson(answer, (body) => {
        (body.calendario as Record<string, unknown>).criacao = '28/11/2026 06:29';
      }),
    ),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'an invalid request accepted (its 400 answered with the 201 of the valid call)',
    interface: 'pix',
    only: ['cob.createWithoutTxid'],
    make: refusalsAccepted('POST', /^\/pix\/cob$/),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'an invalid request accepted (core-banking fee rule)',
    interface: 'core-banking',
    only: ['feeRules.create'],
    make: refusalsAccepted('POST', feeRules),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'a refusal answered as 500',
    interface: 'core-banking',
    only: ['feeRules.create'],
    make: answers(
      'POST',
      feeRules,
      (answer) => ({ ...answer, status: 500 }),
      (answer) => answer.status === 400,
    ),
    wantKind: 'invalid',
    wantRule: rules,
  },
  {
    drift: 'a request without a token accepted',
    interface: 'core-banking',
    only: ['accounts.list'],
    make: tokenDrift((_request, token) => token === undefined),
    wantKind: 'token',
    wantRule: /^no token$/,
  },
  {
    drift: 'a malformed token accepted',
    interface: 'pix',
    only: ['cob.list'],
    make: tokenDrift((_request, token) => token?.startsWith(malformedPrefix) === true),
    wantKind: 'token',
    wantRule: /^malformed token$/,
  },
  {
    drift: 'a token of another interface accepted',
    interface: 'pix',
    only: ['cob.list'],
    make: tokenDrift((_request, _token, issuer) => issuer !== undefined && !issuer.startsWith('/pix/')),
    wantKind: 'token',
    wantRule: /^token of /,
  },
  {
    drift: 'a token without the scope accepted',
    interface: 'pix',
    only: ['cob.list'],
    make: tokenDrift((_request, _token, issuer) => issuer?.startsWith('/pix/') === true),
    wantKind: 'token',
    wantRule: /^token without its scope/,
  },
  {
    drift: 'an idempotent replay answering a different body',
    interface: 'core-banking',
    only: ['invoices.create'],
    make: idempotencyDrift('POST', coreInvoices, (answer, first, request) =>
      request.body.equals(first.body) && is2xx(answer) ? withJson(answer, otherText) : answer,
    ),
    wantKind: 'idempotency',
    wantRule: /^same key replays$/,
  },
  {
    drift: 'another payload under a key answered with the first success, not 409',
    interface: 'core-banking',
    only: ['invoices.create'],
    make: idempotencyDrift('POST', coreInvoices, (answer, first) => (answer.status === 409 ? first.answer : answer)),
    wantKind: 'idempotency',
    wantRule: /^same key, other payload$/,
  },
  {
    drift: 'another payload under a key answered 200, not 409 (accounts TED)',
    interface: 'accounts',
    only: ['ted.create'],
    make: idempotencyDrift('POST', /^\/accounts\/api\/v2\/ted$/, (answer, first) =>
      answer.status === 409 ? { ...first.answer, status: 200 } : answer,
    ),
    wantKind: 'idempotency',
    wantRule: /^same key, other payload$/,
  },
  {
    drift: 'an idempotent replay answering a different body (accounts TED)',
    interface: 'accounts',
    only: ['ted.create'],
    make: idempotencyDrift('POST', /^\/accounts\/api\/v2\/ted$/, (answer, first, request) =>
      request.body.equals(first.body) && is2xx(answer) ? withJson(answer, otherText) : answer,
    ),
    wantKind: 'idempotency',
    wantRule: /^same key replays$/,
  },
  {
    drift: 'a page whose meta lies about the count of pages',
    interface: 'pix',
    only: ['cob.list'],
    make: answers('GET', /^\/pix\/cob$/, (answer) =>
      withJson(answer, (body) => {
        const paging = (body.parametros as { paginacao: Record<string, number> }).paginacao;
        paging.quantidadeDePaginas = (paging.quantidadeDePaginas ?? 0) + 2;
      }),
    ),
    wantKind: 'paging',
    wantRule: /^pages agree with their items$/,
  },
  {
    drift: 'a page whose meta lies about the total of items',
    interface: 'core-banking',
    only: ['accounts.list'],
    make: answers('GET', coreAccounts, (answer) =>
      withJson(answer, (body) => {
        const meta = body.meta as Record<string, number>;
        meta.total = (meta.total ?? 0) + 3;
      }),
    ),
    wantKind: 'paging',
    wantRule: /^pages agree with their items$/,
  },
  {
    drift: 'a page holding more items than asked',
    interface: 'core-banking',
    only: ['accounts.list'],
    make: answers('GET', coreAccounts, (answer) =>
      withJson(answer, (body) => {
        const items = body.data as Record<string, unknown>[];
        if (items.length > 0) items.push({ ...items[0], id: '99999' }, { ...items[0], id: '99998' });
      }),
    ),
    wantKind: 'paging',
    wantRule: /^pages agree with their items$/,
  },
  {
    drift: 'a 2xx answered as 418 (accounts balance)',
    interface: 'accounts',
    only: ['balance.get'],
    make: answers('GET', /^\/accounts\/api\/v2\/accounts\/balance$/, (answer) => ({ ...answer, status: 418 })),
    wantKind: 'valid',
    wantRule: /^example accepted$/,
  },
  {
    drift: 'a cob revised after its removal answered 200 (section 3 forbids it)',
    interface: 'pix',
    only: ['cob.create', 'cob.revise', 'cob.get'],
    make: removedRevisedAccepted,
    wantKind: 'flow',
    wantRule: /^cob: a removed charge is not changeable/,
  },
  {
    drift: 'a garbage body (not JSON) on a success',
    interface: 'core-banking',
    only: ['accounts.get'],
    make: answers('GET', coreAccount, (answer) => ({ ...answer, body: garbage })),
    wantKind: 'valid',
    wantRule: /^example/,
    wantReason: /not JSON/,
  },
  {
    drift: 'a reset connection on one operation',
    interface: 'core-banking',
    only: ['accounts.balance'],
    make: answers('GET', coreBalance, () => ({ reset: true })),
    wantKind: 'valid',
    wantRule: /^example/,
    wantReason: /reset|closed/,
  },
  {
    drift: 'an answer slower than the timeout',
    interface: 'core-banking',
    only: ['accounts.get'],
    make: answers('GET', coreAccount, (answer) => ({ late: answer, afterMs: 2000 })),
    wantKind: 'valid',
    wantRule: /^example/,
    wantReason: /timeout|time limit/,
    timeoutMs: 700,
  },
];

let sandbox: Sandbox;
let proxy: DriftProxy;
const detected = new Map<string, boolean>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  proxy = await startDriftProxy(sandbox.url);
});

afterAll(async () => {
  const found = [...detected.values()].filter(Boolean).length;
  console.log(`verify drifts: ${cases.length} planted, ${found} detected`);
  for (const [drift, seen] of detected) if (!seen) console.log(`  not detected: ${drift}`);
  await proxy?.close();
  await sandbox?.close();
  expect(found).toBe(cases.length);
});

let runs = 0;

function run(given: Case): Promise<VerifyReport> {
  runs += 1;
  const definition = findDefinition(given.interface)!;
  const { clientId } = sandboxClientOf(definition);
  return verify({
    interfaceName: given.interface,
    baseUrl: `${proxy.url}${sandboxPrefixOf(definition.documents[0]!)}`,
    credential: { clientId, clientSecret: sandboxSecret },
    allowWrites: true,
    ...(given.interface === 'accounts' ? { accountId: '2001' } : {}),
    only: given.only,
    // A seed of its own: the ids the caller chooses (a txid) are new at the sandbox on every run.
    seed: `drifts-${runs}`,
    ratePerSecond: 0,
    ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
  });
}

const failures = (report: VerifyReport): CheckResult[] => report.results.filter((each) => each.verdict === 'fail');
const line = (each: CheckResult): string => `${each.operationId} [${each.kind}] ${each.rule}: ${each.reason}`;

describe('verify finds each planted drift', () => {
  for (const given of cases)
    it(`${given.interface}: ${given.drift}`, { timeout: 30_000 }, async () => {
      detected.set(given.drift, false);
      proxy.plant(null);
      const control = await run(given);
      expect(failures(control).map(line), 'passing through, nothing fails').toEqual([]);
      expect(
        control.results.some((each) => each.kind === given.wantKind && each.verdict === 'pass' && given.wantRule.test(each.rule)),
        'passing through, the check the drift breaks passes',
      ).toBe(true);

      proxy.plant(given.make());
      let touched = 0;
      const drifted = await run(given).finally(() => {
        touched = proxy.touched();
        proxy.plant(null);
      });
      expect(touched, 'the drift acted on some request').toBeGreaterThan(0);
      const wanted = failures(drifted).filter(
        (each) => each.kind === given.wantKind && given.wantRule.test(each.rule) && (given.wantReason?.test(each.reason) ?? true),
      );
      expect(
        wanted.map(line),
        `with the drift, a failure of [${given.wantKind}] ${given.wantRule}; failures: ${failures(drifted).map(line).join(' | ')}`,
      ).not.toEqual([]);
      detected.set(given.drift, true);
    });
});
