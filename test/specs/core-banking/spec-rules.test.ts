/**
 * Rules of interface D that live in the shape of the contract rather than in a payload: scopes,
 * declared statuses, headers, states. Each is a predicate over the bundled spec that returns its
 * violations; it must hold on the real spec (valid case) and fail on a copy broken on purpose
 * (invalid case). The last test checks that every interface-D rule of the inventory is covered here,
 * by a payload case, by a named test elsewhere, or has a stated reason why no client can check it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import { isObject, operationsOf, pointerGet, resolveLocal, type JsonObject, type OperationModel } from '../../../scripts/openapi-model.js';
import { cases as payloadCases } from './payload-cases.js';

const spec = JSON.parse(readFileSync(join(projectRoot, 'generated/core-banking/openapi.json'), 'utf8')) as JsonObject;
type Violations = string[];

const op = (doc: JsonObject, id: string): OperationModel | undefined => operationsOf(doc).find((o) => o.operationId === id);
const opObject = (doc: JsonObject, id: string): JsonObject => op(doc, id)!.operation;
const schema = (doc: JsonObject, name: string): JsonObject => pointerGet(doc, `/components/schemas/${name}`) as JsonObject;
const knownValues = (doc: JsonObject, name: string, property: string): unknown[] =>
  ((schema(doc, name).properties as JsonObject)[property] as JsonObject)['x-known-values'] as unknown[];

function requireScopes(expected: Record<string, string>) {
  return (doc: JsonObject): Violations =>
    Object.entries(expected).flatMap(([id, scope]) => (op(doc, id)?.scopes.includes(scope) ? [] : [`${id} does not require ${scope}`]));
}
function forbidScopes(scopes: string[]) {
  return (doc: JsonObject): Violations =>
    operationsOf(doc).flatMap((o) =>
      o.scopes.filter((s) => scopes.includes(s)).map((s) => `${o.operationId} requires ${s}, a scope of interface A`),
    );
}
function declaresStatus(ids: string[], status: string) {
  return (doc: JsonObject): Violations =>
    ids.flatMap((id) => (op(doc, id)?.responses.some((r) => r.status === status) ? [] : [`${id} does not declare ${status}`]));
}
/** Every operation that can fail with `status` declares it as an RFC 7807 problem. */
function everyOperationProblem(status: string, which: (o: OperationModel) => boolean = () => true) {
  return (doc: JsonObject): Violations =>
    operationsOf(doc)
      .filter(which)
      .flatMap((o) => {
        const response = o.responses.find((r) => r.status === status);
        if (!response) return [`${o.operationId} does not declare ${status}`];
        return response.mediaType === 'application/problem+json' ? [] : [`${o.operationId} ${status} is not application/problem+json`];
      });
}
const namedNotSpecified =
  (ids: string[]) =>
  (doc: JsonObject): Violations => {
    const listed = new Set((doc['x-named-not-specified'] as JsonObject[] | undefined)?.map((entry) => entry.id));
    return ids.filter((id) => !listed.has(id)).map((id) => `${id} is not listed in x-named-not-specified`);
  };
const oauth2Scopes = (doc: JsonObject): JsonObject =>
  ((((doc.components as JsonObject).securitySchemes as JsonObject).oauth2 as JsonObject).flows as Record<string, JsonObject>)
    .clientCredentials!.scopes as JsonObject;
const baasUsersScopes = (doc: JsonObject): Violations => {
  const declared = oauth2Scopes(doc);
  const missing = ['baas-users.read', 'baas-users.write']
    .filter((scope) => !(scope in declared))
    .map((scope) => `scope ${scope} is not declared`);
  const entries = ((doc['x-named-not-specified'] as JsonObject[] | undefined) ?? []).filter((e) => String(e.id).startsWith('D.baasUsers.'));
  const unnamed = entries
    .filter((e) => typeof e.scope !== 'string' || !(e.scope in declared))
    .map((e) => `${String(e.id)} names no declared scope (${String(e.scope)})`);
  return [...missing, ...unnamed];
};
const withPathParameter = (o: OperationModel): boolean => o.parameters.some((p) => p.in === 'path');
const removeResponse = (id: string, status: string) => (doc: JsonObject) => {
  delete (opObject(doc, id).responses as JsonObject)[status];
};

interface SpecRule {
  readonly rules: string[];
  readonly given: string;
  readonly holds: (doc: JsonObject) => Violations;
  /** Breaks the rule in a copy of the spec. */
  readonly breakIt: (doc: JsonObject) => void;
}

const specRules: SpecRule[] = [
  {
    rules: ['R-A-x-account-id-baas', 'R-A-baas-scope-no-account-id', 'R-D-identity-from-token'],
    given: 'no operation takes an x-* identity header (identity comes only from the token)',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) =>
        o.parameters.filter((p) => p.in === 'header' && /^x-/i.test(p.name)).map((p) => `${o.operationId} takes ${p.name}`),
      ),
    breakIt: (doc) => {
      (opObject(doc, 'accounts.list').parameters as JsonObject[]).push({ name: 'x-account-id', in: 'header', schema: { type: 'integer' } });
    },
  },
  {
    rules: ['R-A-mtls-bearer'],
    given: 'every operation needs the client certificate, and every one but the token request a bearer token',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) => {
        const requirements = (o.operation.security ?? doc.security) as JsonObject[] | undefined;
        const problems: string[] = [];
        if (!requirements?.length || !requirements.every((r) => 'mutualTLS' in r))
          problems.push(`${o.operationId} does not require mutualTLS`);
        if (o.operationId !== 'auth.token' && !o.secured) problems.push(`${o.operationId} does not require a bearer token`);
        return problems;
      }),
    breakIt: (doc) => {
      opObject(doc, 'feeRules.get').security = [{ oauth2: ['fee-rules.read'] }];
    },
  },
  {
    rules: ['R-D-scope-fee-rules', 'R-D-feerule-baas-only'],
    given: 'fee rule operations need fee-rules.read / fee-rules.write and declare 403 for account credentials',
    holds: (doc) => [
      ...requireScopes({
        'feeRules.list': 'fee-rules.read',
        'feeRules.get': 'fee-rules.read',
        'feeRules.create': 'fee-rules.write',
        'feeRules.update': 'fee-rules.write',
        'feeRules.delete': 'fee-rules.write',
      })(doc),
      ...declaresStatus(['feeRules.list', 'feeRules.get', 'feeRules.create', 'feeRules.update', 'feeRules.delete'], '403')(doc),
    ],
    breakIt: (doc) => {
      opObject(doc, 'feeRules.delete').security = [{ oauth2: ['fee-rules.read'], mutualTLS: [] }];
    },
  },
  {
    rules: ['R-A-scope-invoices'],
    given: 'invoice operations need invoices.read / invoices.write',
    holds: requireScopes({
      'invoices.list': 'invoices.read',
      'invoices.get': 'invoices.read',
      'invoices.create': 'invoices.write',
      'invoices.cancel': 'invoices.write',
      'invoices.emit': 'invoices.write',
    }),
    breakIt: (doc) => {
      opObject(doc, 'invoices.create').security = [{ oauth2: ['invoices.read'], mutualTLS: [] }];
    },
  },
  {
    rules: ['R-D-scope-credit-bankarization-applications'],
    given: 'application operations need credit.bankarization.applications.read / .write',
    holds: requireScopes({
      'bankarizationApplications.create': 'credit.bankarization.applications.write',
      'bankarizationApplications.cancel': 'credit.bankarization.applications.write',
      'bankarizationApplications.list': 'credit.bankarization.applications.read',
      'bankarizationApplications.get': 'credit.bankarization.applications.read',
    }),
    breakIt: (doc) => {
      opObject(doc, 'bankarizationApplications.list').security = [{ oauth2: [], mutualTLS: [] }];
    },
  },
  {
    rules: ['R-A-scope-credit-products'],
    given: 'bankarization products need credit.products.read',
    holds: requireScopes({ 'bankarizationProducts.list': 'credit.products.read', 'bankarizationProducts.get': 'credit.products.read' }),
    breakIt: (doc) => {
      opObject(doc, 'bankarizationProducts.get').security = [{ oauth2: ['institution'], mutualTLS: [] }];
    },
  },
  {
    rules: [
      'R-A-scope-account-read',
      'R-A-scope-transactions-read',
      'R-A-scope-pix-read',
      'R-A-scope-pix-create',
      'R-A-scope-pix-write',
      'R-A-scope-internal-transfer',
      'R-A-scope-ted',
      'R-A-scope-billets-read',
      'R-A-scope-billets-create',
      'R-A-scope-billets-write',
      'R-A-scope-webhook-read',
      'R-A-scope-webhook-write',
      'R-A-scope-infractions',
      'R-A-scope-baas-accounts-read',
      'R-A-scope-baas-onboarding',
      'R-A-scope-baas-credentials-write',
      'R-A-scope-econsignado',
      'R-A-scope-crypto-risk',
      'R-A-scope-crypto-caas',
      'R-A-scope-credit-consignado',
    ],
    given: 'scopes that grant interface A operations are not required by any interface D operation',
    holds: forbidScopes([
      'account.read',
      'transactions.read',
      'pix.read',
      'pix.create',
      'pix.write',
      'internal-transfer.read',
      'internal-transfer.create',
      'internal-transfer.write',
      'ted.read',
      'ted.create',
      'ted.write',
      'billets.read',
      'billets.create',
      'billets.write',
      'webhook.read',
      'webhook.write',
      'infractions.read',
      'infractions.write',
      'baas.accounts.read',
      'baas.onboarding.read',
      'baas.onboarding.write',
      'baas.credentials.write',
      'econsignado.read',
      'econsignado.write',
      'crypto-risk.read',
      'crypto-risk.write',
      'crypto-caas.read',
      'crypto-caas.write',
      'credit.consignado.read',
      'credit.consignado.write',
      'credit.loans.read',
    ]),
    breakIt: (doc) => {
      opObject(doc, 'accounts.list').security = [{ oauth2: ['account.read'], mutualTLS: [] }];
    },
  },
  {
    rules: ['R-D-scope-baas-users'],
    given: 'baas-users operations are recorded as named, not specified',
    holds: namedNotSpecified([
      'D.baasUsers.create',
      'D.baasUsers.read',
      'D.baasUsers.update',
      'D.baasUsers.delete',
      'D.baasUsers.setPermissions',
    ]),
    breakIt: (doc) => {
      doc['x-named-not-specified'] = (doc['x-named-not-specified'] as JsonObject[]).filter((e) => e.id !== 'D.baasUsers.read');
    },
  },
  {
    rules: ['R-D-scope-baas-users'],
    given: 'the security scheme declares baas-users.read and baas-users.write, and each baas-users entry names one',
    holds: baasUsersScopes,
    breakIt: (doc) => {
      delete oauth2Scopes(doc)['baas-users.read'];
    },
  },
  {
    rules: ['R-D-scope-baas-users'],
    given: 'a baas-users entry naming a scope the scheme does not declare',
    holds: baasUsersScopes,
    breakIt: (doc) => {
      const entry = (doc['x-named-not-specified'] as JsonObject[]).find((e) => e.id === 'D.baasUsers.delete')!;
      entry.scope = 'baas-users.admin';
    },
  },
  {
    rules: ['R-D-limit-list-interval'],
    given: 'the listings it limits (transactions, movements, infractions) are recorded as named, not specified',
    holds: namedNotSpecified(['D.transactions.list', 'D.movements.list', 'D.infractions.list']),
    breakIt: (doc) => {
      doc['x-named-not-specified'] = (doc['x-named-not-specified'] as JsonObject[]).filter((e) => e.id !== 'D.movements.list');
    },
  },
  ...(['400', '401', '403', '429', '500', '503'] as const).map((status) => ({
    rules: [`R-A-http-${status}`],
    given: `every operation declares ${status} as a problem`,
    holds: everyOperationProblem(status),
    breakIt: removeResponse('baas.list', status),
  })),
  {
    rules: ['R-A-http-404'],
    given: 'every operation with a path parameter declares 404 as a problem',
    holds: everyOperationProblem('404', withPathParameter),
    breakIt: removeResponse('invoices.get', '404'),
  },
  {
    rules: ['R-A-http-409', 'R-D-feerule-weight-409', 'R-D-idempotency-replay'],
    given: 'duplicate weight and reused idempotency keys declare 409',
    holds: declaresStatus(['feeRules.update', 'invoices.create', 'bankarizationApplications.create'], '409'),
    breakIt: removeResponse('feeRules.update', '409'),
  },
  {
    rules: ['R-A-http-422', 'R-A-invoice-cancel-registering-422'],
    given: 'invoice cancel declares 422 (REGISTERING)',
    holds: declaresStatus(['invoices.cancel'], '422'),
    breakIt: removeResponse('invoices.cancel', '422'),
  },
  {
    rules: ['R-D-limit-rate'],
    given: 'every 429 carries Retry-After',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) => {
        const response = resolveLocal(doc, (o.operation.responses as JsonObject)['429']);
        return isObject(response) && isObject(response.headers) && 'Retry-After' in response.headers
          ? []
          : [`${o.operationId} 429 has no Retry-After`];
      }),
    breakIt: (doc) => {
      delete ((doc.components as JsonObject).responses as JsonObject).TooManyRequests;
      (opObject(doc, 'accounts.list').responses as JsonObject)['429'] = { description: 'rate limited' };
    },
  },
  {
    rules: ['R-A-token-issue-conditions', 'R-A-auth-401-credentials', 'R-A-auth-401-certificate', 'R-A-auth-403-ip'],
    given: 'the token request declares 401 (credentials, certificate) and 403 (source IP)',
    holds: (doc) => [...declaresStatus(['auth.token'], '401')(doc), ...declaresStatus(['auth.token'], '403')(doc)],
    breakIt: removeResponse('auth.token', '403'),
  },
  {
    rules: ['R-D-bank-list-account-only'],
    given: 'the application list declares 403 (BaaS callers)',
    holds: declaresStatus(['bankarizationApplications.list'], '403'),
    breakIt: removeResponse('bankarizationApplications.list', '403'),
  },
  {
    rules: ['R-D-feerule-hard-delete'],
    given: 'DELETE /fee-rules/{id} answers 204 without a body',
    holds: (doc) => {
      const response = op(doc, 'feeRules.delete')?.responses.find((r) => r.status === '204');
      return response && response.mediaType === null ? [] : ['feeRules.delete has no bodiless 204'];
    },
    breakIt: (doc) => {
      (opObject(doc, 'feeRules.delete').responses as JsonObject)['204'] = {
        description: 'x',
        content: { 'application/json': { schema: { type: 'object' } } },
      };
    },
  },
  {
    rules: ['R-D-bank-received'],
    given: 'an application is accepted (202) with status RECEIVED among its values',
    holds: (doc) => [
      ...declaresStatus(['bankarizationApplications.create'], '202')(doc),
      ...(knownValues(doc, 'BankarizationApplication', 'status').includes('RECEIVED')
        ? []
        : ['RECEIVED is not a known application status']),
    ],
    breakIt: removeResponse('bankarizationApplications.create', '202'),
  },
  {
    rules: ['R-D-bank-assignment'],
    given: 'assignment is accepted but optional (account callers omit it)',
    holds: (doc) => {
      const request = schema(doc, 'BankarizationApplicationRequest');
      const problems: string[] = [];
      if (!isObject(request.properties) || !('assignment' in request.properties)) problems.push('assignment is not a member');
      if (Array.isArray(request.required) && request.required.includes('assignment')) problems.push('assignment is required');
      return problems;
    },
    breakIt: (doc) => {
      schema(doc, 'BankarizationApplicationRequest').required = ['assignment'];
    },
  },
  {
    rules: ['R-D-bank-cancel', 'R-D-invoice-cancel-response', 'R-A-invoice-emit', 'R-A-invoice-cancel'],
    given: 'cancel and emit operations exist and answer with the application, { success } and the invoice',
    holds: (doc) =>
      (
        [
          ['bankarizationApplications.cancel', 'BankarizationApplication'],
          ['invoices.cancel', 'SuccessResponse'],
          ['invoices.emit', 'Invoice'],
        ] as const
      ).flatMap(([id, name]) => {
        const ok = op(doc, id)?.responses.find((r) => r.status === '200')?.schema?.$ref === `#/components/schemas/${name}`;
        return ok ? [] : [`${id} does not answer 200 ${name}`];
      }),
    breakIt: (doc) => {
      delete (doc.paths as JsonObject)['/accounts/{accountId}/invoices/{invoiceId}/emit'];
    },
  },
  {
    rules: ['R-A-invoice-immediate-scheduled', 'R-A-invoice-scheduled-draft', 'R-A-invoice-boleto-registering', 'R-A-invoice-paid'],
    given: 'invoice types and the statuses their transitions lead to (DRAFT, REGISTERING, COMPLETED) are in the contract',
    holds: (doc) => {
      const types = ((schema(doc, 'InvoiceCreateRequest').properties as JsonObject).type as JsonObject).enum as unknown[];
      const statuses = knownValues(doc, 'Invoice', 'status');
      return [
        ...['IMMEDIATE', 'SCHEDULED'].filter((t) => !types.includes(t)).map((t) => `invoice type ${t} missing`),
        ...['DRAFT', 'REGISTERING', 'COMPLETED'].filter((s) => !statuses.includes(s)).map((s) => `invoice status ${s} missing`),
      ];
    },
    breakIt: (doc) => {
      ((schema(doc, 'Invoice').properties as JsonObject).status as JsonObject)['x-known-values'] = ['COMPLETED'];
    },
  },
  {
    rules: ['R-D-versioning'],
    given: 'version 0.40.0 and no path under the removed /public/gw_banking/v1/ prefix',
    holds: (doc) => [
      ...((doc.info as JsonObject).version === '0.40.0' ? [] : ['version is not 0.40.0']),
      ...Object.keys(doc.paths as JsonObject)
        .filter((p) => p.startsWith('/public/gw_banking/v1'))
        .map((p) => `${p} keeps the removed prefix`),
    ],
    breakIt: (doc) => {
      (doc.paths as JsonObject)['/public/gw_banking/v1/accounts'] = (doc.paths as JsonObject)['/accounts']!;
    },
  },
];

/** Rules checked by behaviour tests of the client rather than by the spec's shape. */
const checkedByTests: Record<string, string> = {
  'R-D-token-request': 'test/runtime/token-renewal.test.ts: snake_case client-credentials body, Bearer header',
  'R-A-http-401': 'test/runtime/token-renewal.test.ts: on 401 the token is renewed once and the call retried once',
  'R-A-limit-token-lifetime': 'test/runtime/token-renewal.test.ts: token reused until expires_in minus the skew, then renewed',
  'R-A-secret-not-frontend': 'test/runtime/token-renewal.test.ts and mtls.test.ts: the secret never appears in errors',
  'R-A-auth-tls-failure': 'test/runtime/mtls.test.ts: wrong certificate, key or trust ends as an AuthError saying which',
  'R-A-problem-details': 'test/core-banking/contract.test.ts: every problem example parsed into ProblemError with correlationId',
};

/** Rules no client can check: the reason is the record. */
const notCheckableByClient: Record<string, string> = {
  'R-A-scopes-not-retroactive': 'which scopes a credential holds is server-side state; the client only sees 403',
  'R-A-limit-certificates': 'how many certificates a credential has is server-side state (rotation is a client feature of issue 4)',
};

describe('spec-level rules of interface D', () => {
  it.each(specRules.map((r) => [`${r.rules.join(', ')}: ${r.given}`, r] as const))('%s', (_label, rule) => {
    expect(rule.holds(spec)).toEqual([]);
    const broken = structuredClone(spec);
    rule.breakIt(broken);
    expect(rule.holds(broken).length).toBeGreaterThan(0);
  });

  it('covers every interface-D rule of the inventory', () => {
    const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as {
      rules: { id: string; interface: string; alsoInterfaces?: string[] }[];
    };
    const rulesOfD = inventory.rules.filter((r) => r.interface === 'D' || r.alsoInterfaces?.includes('D')).map((r) => r.id);
    const covered = new Set([
      ...payloadCases.map((c) => c.rule),
      ...specRules.flatMap((r) => r.rules),
      ...Object.keys(checkedByTests),
      ...Object.keys(notCheckableByClient),
    ]);
    expect(rulesOfD.filter((id) => !covered.has(id))).toEqual([]);
    expect(rulesOfD.length).toBe(89);
  });
});
