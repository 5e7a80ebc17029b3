/** The drifts the drift test plants, one per row: what the proxy changes and which check must fail. */
import { expiredLooking } from '../../src/verify/checks/tokens.js';
import type { CheckKind } from '../../src/verify/model.js';
import { type Drift, withJson } from './drift-proxy.js';
import {
  is2xx,
  answers,
  rules,
  garbage,
  tokenDrift,
  idempotencyDrift,
  otherText,
  refusalsAccepted,
  removedRevisedAccepted,
} from './drift-makers.js';

export interface Case {
  readonly drift: string;
  /** An interface of the definitions (the test refuses any other name). */
  readonly interface: string;
  readonly only: readonly string[];
  /** A new drift (its own state) for each run. */
  readonly make: () => Drift;
  readonly wantKind: CheckKind;
  readonly wantRule: RegExp;
  /** What the failure's reason must say, where the drift decides it (a timeout, a reset). */
  readonly wantReason?: RegExp;
  readonly timeoutMs?: number;
}

const pixCob = /^\/pix\/cob\/[^/]+$/;
const feeRules = /^\/core-banking\/fee-rules$/;
const coreAccounts = /^\/core-banking\/accounts$/;
const coreAccount = /^\/core-banking\/accounts\/[^/]+$/;
const coreBalance = /^\/core-banking\/accounts\/[^/]+\/balance$/;
const coreInvoices = /^\/core-banking\/accounts\/[^/]+\/invoices$/;

export const cases: readonly Case[] = [
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
    make: tokenDrift((_request, token) => token === expiredLooking),
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
