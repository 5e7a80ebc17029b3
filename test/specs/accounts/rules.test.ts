/**
 * Rules of interface A (sections 1 to 8): the given/want cases of ./cases.ts through the paths users
 * take (`contrato validate accounts …` and the client's check before sending), predicates over the
 * bundled spec for the rules that live in its shape (each must hold, and fail on a copy broken on
 * purpose), and a check that every rule of A in the inventory is covered here, by a named test
 * elsewhere, or has a stated reason no client can check it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import { operationsOf, pointerGet, type JsonObject, type OperationModel } from '../../../scripts/openapi-model.js';
import { accountsChecks } from '../../../src/accounts/checks.js';
import { loadInterface } from '../../../src/checks/registry.js';
import { findOperation } from '../../../src/checks/router.js';
import { validateDocument } from '../../../src/checks/validate.js';
import { runCrossFieldChecks } from '../../../src/rules/cross-field.js';
import { validateRequest } from '../../../src/runtime/steps/validate.js';
import { argsCases, document, documentCases } from './cases.js';

const modules = await loadInterface('accounts');
const lines = (issues: readonly { pointer: string; message: string }[]): string =>
  issues.map((i) => `${i.pointer || '/'}: ${i.message}`).join('\n');

describe('rules of interface A through contrato validate accounts', () => {
  it.each(documentCases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const operation = findOperation(modules, c.method, c.path);
    expect(operation, `${c.method} ${c.path}`).not.toBeNull();
    // A keyed operation's request carries its key, as every client sends it.
    const key = operation!.info.idempotencyKeyRule?.header;
    const parts = { query: {}, header: key === undefined ? {} : { [key]: 'key20250410001' } };
    const issues = lines(validateDocument(modules, c.target, c.document, operation!, undefined, parts));
    if (c.want === 'valid') expect(issues).toBe('');
    else expect(issues).toMatch(c.want);
  });
});

describe('rules of interface A through the client check before sending', () => {
  // The date rules are relative to today in São Paulo: pin today to 2025-04-10.
  const now = new Date('2025-04-10T15:00:00Z');
  it.each(argsCases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const info = modules.operationTable[c.operationId]!;
    const schemaIssues = validateRequest(info, modules.validators.operations[c.operationId]!, c.args, modules.patternDescriptions);
    const issues = schemaIssues.length > 0 ? schemaIssues : runCrossFieldChecks(accountsChecks[c.operationId], c.args, { now });
    if (c.want === 'valid') expect(lines(issues)).toBe('');
    else expect(lines(issues)).toMatch(c.want);
  });
});

type Violations = string[];
const op = (doc: JsonObject, id: string): OperationModel => {
  const found = operationsOf(doc).find((o) => o.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const declares =
  (ids: string[], status: string) =>
  (doc: JsonObject): Violations =>
    ids.flatMap((id) => (op(doc, id).responses.some((r) => r.status === status) ? [] : [`${id} does not declare ${status}`]));
const removeResponse = (id: string, status: string) => (doc: JsonObject) => {
  delete (op(doc, id).operation.responses as JsonObject)[status];
};
/** Operations that never take x-account-id (convention 2, credential issuing and the token request). */
const baasScope = new Set([
  'childAccounts.list',
  'childAccounts.get',
  'onboarding.create',
  'onboarding.uploadImage',
  'onboardings.list',
  'onboardings.get',
  'credentials.create',
  'auth.token',
]);

/** Scope of each operation as sections 4 and 5 give it (alternatives where either scope allows it). */
const expectedScopes: Record<string, string[]> = {
  'keys.list': ['pix.read'],
  'keys.challenge': ['pix.write'],
  'keys.create': ['pix.write'],
  'keys.delete': ['pix.write'],
  'pixKeys.lookup': ['pix.read'],
  'transactions.list': ['transactions.read'],
  'transactions.details': ['transactions.read'],
  'balance.get': ['account.read'],
  'statements.summaryByPeriod': ['account.read'],
  'statements.summaryByHour': ['account.read'],
  'childAccounts.list': ['baas.accounts.read'],
  'childAccounts.get': ['baas.accounts.read'],
  'onboarding.create': ['baas.onboarding.write'],
  'onboarding.uploadImage': ['baas.onboarding.write'],
  'onboardings.list': ['baas.onboarding.read'],
  'onboardings.get': ['baas.onboarding.read'],
  'credentials.create': ['baas.credentials.write'],
  'billets.info': ['billets.read'],
  'billets.list': ['billets.read'],
  'billets.getById': ['billets.read'],
  'billets.detail': ['billets.read'],
  'billets.receipt': ['billets.read'],
  'billets.payByDigitableLine': ['billets.write', 'billets.create'],
  'billets.payQueried': ['billets.write', 'billets.create'],
  'ted.create': ['ted.create', 'ted.write'],
  'ted.getById': ['ted.read'],
  'ted.getByIdempotencyKey': ['ted.read'],
  'internalTransfers.create': ['internal-transfer.create', 'internal-transfer.write'],
  'internalTransfers.getByEndToEndId': ['internal-transfer.read'],
  'internalTransfers.getByIdempotencyKey': ['internal-transfer.read'],
  'invoices.create': ['invoices.write'],
  'invoices.emit': ['invoices.write'],
  'invoices.cancel': ['invoices.write'],
  'invoices.list': ['invoices.read'],
  'invoices.get': ['invoices.read'],
  'webhooks.list': ['webhook.read'],
  'webhooks.get': ['webhook.read'],
  'webhooks.delete': ['webhook.write'],
  'caasWallets.create': ['crypto-caas.write'],
  'caasWallets.list': ['crypto-caas.read'],
  'caasQuotes.create': ['crypto-caas.write'],
  'caasOrders.create': ['crypto-caas.write'],
  'caasOrders.list': ['crypto-caas.read'],
  'caasOrders.get': ['crypto-caas.read'],
  'cryptoRiskAnalyses.create': ['crypto-risk.write'],
  'cryptoRiskAnalyses.list': ['crypto-risk.read'],
  'cryptoRiskAnalyses.get': ['crypto-risk.read'],
  'cryptoRiskIngest.get': ['crypto-risk.read'],
  ...Object.fromEntries(
    ['Crypto', 'Invoice', 'Transfer', 'Receive', 'Refund', 'Cashout', 'Infraction'].map((type) => [
      `webhooks.register${type}`,
      ['webhook.write'],
    ]),
  ),
};

interface SpecRule {
  readonly rules: string[];
  readonly given: string;
  readonly holds: (doc: JsonObject) => Violations;
  readonly breakIt: (doc: JsonObject) => void;
}

const specRules: SpecRule[] = [
  {
    rules: ['R-A-x-account-id-baas', 'R-A-baas-scope-no-account-id'],
    given: 'x-account-id is declared on exactly the account-operational endpoints, never required',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) => {
        const header = o.parameters.find((p) => p.in === 'header' && p.name === 'x-account-id');
        if (baasScope.has(o.operationId)) return header ? [`${o.operationId} is BaaS-scope but takes x-account-id`] : [];
        if (!header) return [`${o.operationId} is account-operational but takes no x-account-id`];
        return header.required || header.schema.type !== 'integer' || header.schema.format !== 'int64'
          ? [`${o.operationId}: x-account-id must be an optional int64`]
          : [];
      }),
    breakIt: (doc) => {
      (op(doc, 'childAccounts.list').operation.parameters as JsonObject[]).push({
        name: 'x-account-id',
        in: 'header',
        schema: { type: 'integer', format: 'int64' },
      });
    },
  },
  {
    rules: ['R-A-mtls-bearer'],
    given: 'every operation needs the client certificate, and every one but the token request a bearer token',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) => {
        const requirements = o.operation.security as JsonObject[] | undefined;
        const problems: string[] = [];
        if (!requirements?.length || !requirements.every((r) => 'mutualTLS' in r))
          problems.push(`${o.operationId} does not require mutualTLS`);
        if (o.operationId !== 'auth.token' && !o.secured) problems.push(`${o.operationId} does not require a bearer token`);
        return problems;
      }),
    breakIt: (doc) => {
      op(doc, 'keys.list').operation.security = [{ oauth2: ['pix.read'] }];
    },
  },
  {
    rules: [
      'R-A-scope-account-read',
      'R-A-scope-transactions-read',
      'R-A-scope-pix-read',
      'R-A-scope-pix-write',
      'R-A-scope-internal-transfer',
      'R-A-scope-ted',
      'R-A-scope-billets-read',
      'R-A-scope-billets-create',
      'R-A-scope-billets-write',
      'R-A-scope-webhook-read',
      'R-A-scope-webhook-write',
      'R-A-scope-baas-accounts-read',
      'R-A-scope-baas-onboarding',
      'R-A-scope-baas-credentials-write',
      'R-A-scope-crypto-risk',
      'R-A-scope-crypto-caas',
      'R-A-scope-invoices',
      'R-A-pix-key-lookup-scope',
    ],
    given: 'each operation asks for the scope sections 4 and 5 give it, and for no other',
    holds: (doc) =>
      operationsOf(doc)
        .filter((o) => o.operationId !== 'auth.token')
        .flatMap((o) => {
          const want = expectedScopes[o.operationId];
          if (!want) return [`${o.operationId} has no expected scope in this test`];
          return [...o.scopes].sort().join(' ') === [...want].sort().join(' ')
            ? []
            : [`${o.operationId} asks for ${o.scopes.join(', ')}, not ${want.join(', ')}`];
        }),
    breakIt: (doc) => {
      op(doc, 'balance.get').operation.security = [{ oauth2: ['transactions.read'], mutualTLS: [] }];
    },
  },
  {
    rules: [
      'R-A-scope-pix-create',
      'R-A-scope-infractions',
      'R-A-scope-econsignado',
      'R-A-scope-credit-products',
      'R-A-scope-credit-consignado',
    ],
    given: 'the scopes of operations named without shapes are declared, and those operations are listed as named, not specified',
    holds: (doc) => {
      const declared = Object.keys(
        (pointerGet(doc, '/components/securitySchemes/oauth2/flows/clientCredentials/scopes') ?? {}) as JsonObject,
      );
      const named = new Set(((doc['x-named-not-specified'] as JsonObject[]) ?? []).map((entry) => entry.id));
      const scopes = [
        'pix.create',
        'infractions.read',
        'infractions.write',
        'econsignado.read',
        'econsignado.write',
        'credit.products.read',
        'credit.simulations.write',
        'credit.applications.write',
        'credit.consignado.read',
        'credit.consignado.write',
        'credit.loans.read',
      ];
      const operations = [
        'A.pixPayments.create',
        'A.infractions.query',
        'A.infractions.defend',
        'A.econsignado.read',
        'A.econsignado.submit',
        'A.creditSimulations.create',
        'A.creditApplications.create',
        'A.loans.read',
      ];
      return [
        ...scopes.filter((s) => !declared.includes(s)).map((s) => `scope ${s} is not declared`),
        ...operations.filter((id) => !named.has(id)).map((id) => `${id} is not listed as named, not specified`),
      ];
    },
    breakIt: (doc) => {
      delete (pointerGet(doc, '/components/securitySchemes/oauth2/flows/clientCredentials/scopes') as JsonObject)['econsignado.read'];
    },
  },
  {
    rules: ['R-A-key-invalid-code-error'],
    given: 'the key creation declares 400, 403 and 422 for an invalid, expired or used code (decision 12)',
    holds: (doc) => [
      ...declares(['keys.create'], '400')(doc),
      ...declares(['keys.create'], '403')(doc),
      ...declares(['keys.create'], '422')(doc),
    ],
    breakIt: removeResponse('keys.create', '422'),
  },
  {
    rules: ['R-A-key-delete-not-owned-404'],
    given: 'DELETE /accounts/keys/{key} declares 404',
    holds: declares(['keys.delete'], '404'),
    breakIt: removeResponse('keys.delete', '404'),
  },
  {
    rules: ['R-A-key-delete-active-qr-409'],
    given: 'DELETE /accounts/keys/{key} declares 409',
    holds: declares(['keys.delete'], '409'),
    breakIt: removeResponse('keys.delete', '409'),
  },
  {
    rules: ['R-A-tx-details-404', 'R-A-http-404'],
    given: 'reads by id declare 404',
    holds: declares(
      [
        'transactions.details',
        'childAccounts.get',
        'onboardings.get',
        'billets.getById',
        'ted.getById',
        'invoices.get',
        'webhooks.get',
        'caasOrders.get',
        'cryptoRiskAnalyses.get',
      ],
      '404',
    ),
    breakIt: removeResponse('transactions.details', '404'),
  },
  {
    rules: ['R-A-webhook-get-404'],
    given: 'get webhook declares 404',
    holds: declares(['webhooks.get'], '404'),
    breakIt: removeResponse('webhooks.get', '404'),
  },
  {
    rules: ['R-A-caas-order-other-account-404'],
    given: 'GET /crypto-caas/orders/{id} declares 404',
    holds: declares(['caasOrders.get'], '404'),
    breakIt: removeResponse('caasOrders.get', '404'),
  },
  {
    rules: ['R-A-invoice-cancel-registering-422', 'R-A-http-422'],
    given: 'the invoice cancel declares 422',
    holds: declares(['invoices.cancel', 'caasWallets.create', 'cryptoRiskAnalyses.create', 'keys.create'], '422'),
    breakIt: removeResponse('invoices.cancel', '422'),
  },
  {
    rules: ['R-A-caas-asset-as-network-422'],
    given: 'CaaS creations declare 422',
    holds: declares(['caasWallets.create', 'caasQuotes.create', 'caasOrders.create'], '422'),
    breakIt: removeResponse('caasQuotes.create', '422'),
  },
  {
    rules: ['R-A-caas-attestation-403'],
    given: 'CaaS operations declare 403',
    holds: declares(['caasWallets.create', 'caasQuotes.create', 'caasOrders.create'], '403'),
    breakIt: removeResponse('caasOrders.create', '403'),
  },
  {
    rules: ['R-A-caas-broker-401-503', 'R-A-http-503'],
    given: 'CaaS operations declare 503',
    holds: declares(
      ['caasWallets.create', 'caasWallets.list', 'caasQuotes.create', 'caasOrders.create', 'caasOrders.list', 'caasOrders.get'],
      '503',
    ),
    breakIt: removeResponse('caasWallets.list', '503'),
  },
  {
    rules: ['R-A-caas-wallet-create-201'],
    given: 'wallet creation answers 201 (not 200); reading wallets 200',
    holds: (doc) => [
      ...declares(['caasWallets.create'], '201')(doc),
      ...declares(['caasWallets.list'], '200')(doc),
      ...(op(doc, 'caasWallets.create').responses.some((r) => r.status === '200') ? ['caasWallets.create declares 200'] : []),
    ],
    breakIt: (doc) => {
      const responses = op(doc, 'caasWallets.create').operation.responses as JsonObject;
      responses['200'] = responses['201']!;
      delete responses['201'];
    },
  },
  {
    rules: ['R-A-caas-wallets-no-pagination'],
    given: 'GET /crypto-caas/wallets takes no paging parameters and its meta has total only',
    holds: (doc) => {
      const list = op(doc, 'caasWallets.list');
      const meta = pointerGet(doc, '/components/schemas/CaasWalletListMeta/properties') as JsonObject;
      return [
        ...(list.operation['x-pagination'] ? ['x-pagination present'] : []),
        ...list.parameters.filter((p) => p.in === 'query' && p.name !== 'network').map((p) => `takes ${p.name}`),
        ...Object.keys(meta)
          .filter((k) => k !== 'total')
          .map((k) => `meta has ${k}`),
      ];
    },
    breakIt: (doc) => {
      (op(doc, 'caasWallets.list').operation.parameters as JsonObject[]).push({ name: 'page', in: 'query', schema: { type: 'integer' } });
    },
  },
  {
    rules: ['R-A-risk-201', 'R-A-risk-202'],
    given: 'POST /crypto-risk/analyses declares 201 (snapshot with events) and 202',
    holds: (doc) => [...declares(['cryptoRiskAnalyses.create'], '201')(doc), ...declares(['cryptoRiskAnalyses.create'], '202')(doc)],
    breakIt: removeResponse('cryptoRiskAnalyses.create', '202'),
  },
  {
    rules: ['R-A-risk-other-ingest-409', 'R-A-risk-retry-running-202', 'R-A-http-409'],
    given: 'POST /crypto-risk/analyses declares 409',
    holds: declares(['cryptoRiskAnalyses.create'], '409'),
    breakIt: removeResponse('cryptoRiskAnalyses.create', '409'),
  },
  {
    rules: ['R-A-risk-list-no-events', 'R-A-risk-snapshot-omissions'],
    given: 'list items carry no events; no snapshot carries features, exposure graph, PDF or sanctions',
    holds: (doc) => {
      const summary = Object.keys((pointerGet(doc, '/components/schemas/CryptoRiskSnapshotSummary/properties') ?? {}) as JsonObject);
      const snapshot = JSON.stringify(pointerGet(doc, '/components/schemas/CryptoRiskSnapshot'));
      return [
        ...(summary.includes('events') ? ['list items carry events'] : []),
        ...['"features"', '"exposureGraph"', '"pdf"', '"sanctions"']
          .filter((name) => snapshot.includes(name))
          .map((name) => `snapshot has ${name}`),
      ];
    },
    breakIt: (doc) => {
      (pointerGet(doc, '/components/schemas/CryptoRiskSnapshotSummary/properties') as JsonObject).events = { type: 'array' };
    },
  },
  {
    rules: ['R-A-webhook-type-enum'],
    given: 'a registration operation for each of the seven webhook types, marked case-insensitive',
    holds: (doc) =>
      ['CRYPTO', 'invoice', 'TRANSFER', 'RECEIVE', 'REFUND', 'CASHOUT', 'INFRACTION'].flatMap((type) => {
        const registration = operationsOf(doc).find(
          (o) => o.method === 'post' && o.path.toLowerCase() === `/webhooks/${type.toLowerCase()}`,
        );
        if (!registration) return [`no registration for ${type}`];
        return registration.operation['x-path-case-insensitive'] === true
          ? []
          : [`${registration.operationId} is not marked case-insensitive`];
      }),
    breakIt: (doc) => {
      delete op(doc, 'webhooks.registerRefund').operation['x-path-case-insensitive'];
    },
  },
  {
    rules: ['R-A-problem-details', 'R-A-http-401', 'R-A-http-403', 'R-A-http-429', 'R-A-http-500'],
    given: 'every operation declares 401, 403, 429, 500 and 503 as RFC 7807 problems (the token request: 401, 403, 500)',
    holds: (doc) =>
      operationsOf(doc).flatMap((o) =>
        (o.operationId === 'auth.token' ? ['401', '403', '500'] : ['401', '403', '429', '500', '503']).flatMap((status) => {
          const response = o.responses.find((r) => r.status === status);
          if (!response) return [`${o.operationId} does not declare ${status}`];
          return response.mediaType === 'application/problem+json' ? [] : [`${o.operationId} ${status} is not application/problem+json`];
        }),
      ),
    breakIt: removeResponse('billets.list', '429'),
  },
  {
    rules: ['R-A-http-400'],
    given: 'every operation that takes a body or parameters declares 400',
    holds: (doc) =>
      operationsOf(doc)
        .filter((o) => o.requestBody || o.parameters.some((p) => p.in !== 'header'))
        .flatMap((o) => (o.responses.some((r) => r.status === '400') ? [] : [`${o.operationId} does not declare 400`])),
    breakIt: removeResponse('ted.create', '400'),
  },
  {
    rules: ['R-A-auth-401-credentials', 'R-A-auth-401-certificate', 'R-A-auth-403-ip'],
    given: 'the token request declares 401 (credentials, certificate) and 403 (source IP)',
    holds: (doc) => [...declares(['auth.token'], '401')(doc), ...declares(['auth.token'], '403')(doc)],
    breakIt: removeResponse('auth.token', '403'),
  },
  {
    rules: ['R-A-idempotency-required', 'R-A-limit-x-idempotency-key', 'R-A-limit-invoice-key', 'R-A-limit-caas-idempotency-key'],
    given: 'each idempotency header as written for its family (decision 22)',
    holds: (doc) => {
      const header = (id: string) => {
        const o = op(doc, id);
        const name = o.operation['x-idempotency-key'];
        return { name, parameter: o.parameters.find((p) => p.in === 'header' && p.name === name) };
      };
      const problems: string[] = [];
      for (const id of ['billets.payByDigitableLine', 'billets.payQueried', 'ted.create', 'internalTransfers.create']) {
        const { name, parameter } = header(id);
        if (name !== 'x-idempotency-key' || !parameter?.required || parameter.schema.pattern !== '^[a-zA-Z0-9]{1,50}$')
          problems.push(`${id}: x-idempotency-key [a-zA-Z0-9]{1,50} required`);
      }
      const invoiceKey = header('invoices.create');
      if (
        invoiceKey.name !== 'x-idempotency-key' ||
        !invoiceKey.parameter?.required ||
        invoiceKey.parameter.schema.minLength !== 1 ||
        invoiceKey.parameter.schema.maxLength !== 50 ||
        invoiceKey.parameter.schema.pattern
      )
        problems.push('invoices.create: x-idempotency-key 1..50 any characters required');
      for (const id of ['caasWallets.create', 'caasQuotes.create', 'caasOrders.create']) {
        const { name, parameter } = header(id);
        if (name !== 'Idempotency-Key' || parameter?.required || parameter?.schema.maxLength !== 128)
          problems.push(`${id}: optional Idempotency-Key of at most 128`);
      }
      return problems;
    },
    breakIt: (doc) => {
      delete op(doc, 'ted.create').operation['x-idempotency-key'];
    },
  },
  {
    rules: ['R-A-onboarding-image-type', 'R-A-limit-onboarding-image'],
    given: 'the image upload is a multipart form of type and a JPG or PNG file',
    holds: (doc) => {
      const upload = op(doc, 'onboarding.uploadImage');
      const content = (upload.operation.requestBody as JsonObject).content as JsonObject;
      const multipart = content['multipart/form-data'] as JsonObject | undefined;
      const encoding = JSON.stringify(multipart?.encoding ?? {});
      return [
        ...(upload.requestBody?.mediaType === 'multipart/form-data' ? [] : ['not multipart']),
        ...(encoding.includes('image/jpeg') && encoding.includes('image/png') ? [] : ['file encoding is not JPG or PNG']),
      ];
    },
    breakIt: (doc) => {
      const content = (op(doc, 'onboarding.uploadImage').operation.requestBody as JsonObject).content as JsonObject;
      delete (content['multipart/form-data'] as JsonObject).encoding;
    },
  },
];

describe('rules of interface A in the shape of the spec', () => {
  it.each(specRules.map((rule) => [rule.given, rule] as const))('%s: holds on the spec', (_given, rule) => {
    expect(rule.holds(document)).toEqual([]);
  });
  it.each(specRules.map((rule) => [rule.given, rule] as const))('%s: fails on a copy broken on purpose', (_given, rule) => {
    const broken = structuredClone(document);
    rule.breakIt(broken);
    expect(rule.holds(broken).length).toBeGreaterThan(0);
  });
});

/** Rules checked by a named test elsewhere, or that no client can check, with the reason. */
const coveredElsewhere: Record<string, string> = {
  'R-A-key-same-as-challenge': 'test/accounts/client.test.ts: createWithChallenge creates exactly the key it challenged',
  'R-A-key-otp-expiry': 'test/accounts/client.test.ts: a code after the 300 s is not sent; waiting stops at the expiry',
  'R-A-limit-otp': 'test/accounts/client.test.ts (challenge expiry cases)',
  'R-A-key-new-challenge-invalidates':
    'server-side: which hash is current is known only to the platform; a new flow always starts with a new challenge in createWithChallenge',
  'R-A-key-person-type-match':
    'needs the account holder document, known only to the server; CPF/CNPJ keys are checked for format and check digits (cases)',
  'R-A-baas-owner-not-listed': 'server-side filtering of the child-account list',
  'R-A-baas-owner-resolution': 'server-side resolution of the BaaS owner account',
  'R-A-onboarding-removed-hidden': 'server-side filtering of the onboarding list',
  'R-A-onboarding-feature-flag': 'environment preference of the platform, invisible to a client',
  'R-A-onboarding-image-states': 'test/accounts/read-checks.test.ts: checkImageUpload(onboarding) with the onboarding read before',
  'R-A-onboarding-analysis': 'transitions beyond creation are not shown',
  'R-A-limit-onboarding-image': 'also test/accounts/client.test.ts: type by magic bytes, 10 MB limit before uploading',
  'R-A-credential-baas-only': 'test/accounts/baas-only.test.ts: an account credential stops before sending; a baas_ one sends',
  'R-A-credential-not-owner': 'needs to know which account is the BaaS owner: server-side (422 declared)',
  'R-A-credential-child-active': 'needs the child account state: server-side (422 declared)',
  'R-A-limit-credentials-per-child': 'needs the count of active credentials: server-side (422 declared)',
  'R-A-billet-updated-value': 'test/accounts/read-checks.test.ts: checkBilletPaymentAmount(info, request) against totalUpdated',
  'R-A-billet-changeable-value': 'test/accounts/read-checks.test.ts: checkBilletPayable(info) refuses allowChangeValue true',
  'R-A-invoice-immediate-scheduled': 'state moves on the server; examples show IMMEDIATE registering and SCHEDULED as DRAFT',
  'R-A-invoice-scheduled-draft': 'state move on the server; DRAFT is a known value of the invoice status',
  'R-A-invoice-emit': 'state move on the server; emit takes no body',
  'R-A-invoice-cancel': 'state move and clearing-house settlement on the server; invoice.cancelled event tested in test/events',
  'R-A-invoice-paid': 'state move on the server; invoice.paid event tested in test/events',
  'R-A-webhook-delivery': 'delivery by the platform; test/events/handler.test.ts receives deliveries by POST and PUT',
  'R-A-webhook-retry-1-5':
    'the platform resends; test/events/handler.test.ts answers 500 on failure so it does, and handles the redelivery',
  'R-A-webhook-retry-6-10': 'as R-A-webhook-retry-1-5 (schedule of the platform)',
  'R-A-webhook-retry-11-15': 'as R-A-webhook-retry-1-5 (schedule of the platform)',
  'R-A-webhook-disable': 'the platform disables the webhook; a receiver only avoids failing (2xx after handling, duplicates acknowledged)',
  'R-A-limit-webhook-retry': 'as R-A-webhook-retry-1-5',
  'R-A-crypto-webhook-optional': 'platform behaviour without a destination; nothing to send',
  'R-A-invoice-event-dedup': 'test/events/parse.test.ts (dedupeKey table)',
  'R-A-crypto-event-dedup': 'test/events/parse.test.ts (dedupeKey table)',
  'R-A-crypto-order-updated-optional-fields': 'test/events/parse.test.ts (settled without destinationWalletId; optional members)',
  'R-A-caas-sell-verified': 'test/accounts/read-checks.test.ts: checkSellOrigin(wallet) with the wallet read before',
  'R-A-caas-first-purchase-window':
    'test/accounts/read-checks.test.ts: checkBuyAmount(wallet, amountBrl) refuses above the ceiling in the window',
  'R-A-caas-buy-cap': 'test/accounts/read-checks.test.ts: orderHandling(wallet, BUY, amountBrl), above buyMaxBrl the operator decides',
  'R-A-caas-sell-ceiling':
    'test/accounts/read-checks.test.ts: orderHandling(wallet, SELL, amountBrl), above sellMaxBrl the operator decides',
  'R-A-limit-first-purchase': 'as R-A-caas-first-purchase-window (test/accounts/read-checks.test.ts)',
  'R-A-limit-buy-hard-cap': 'test/accounts/read-checks.test.ts: orderHandling sends a BUY above 50000 BRL to the operator',
  'R-A-caas-order-operator': 'state move on the server; crypto.order.updated with previousStatus tested in test/events',
  'R-A-caas-order-settle': 'state move on the server; crypto.order.updated and crypto.order.settled tested in test/events',
  'R-A-caas-order-every-transition': 'state moves on the server; the updated event keys each transition (test/events)',
  'R-A-caas-wallet-first-purchase-close': 'state move on the server; crypto.wallet.first_purchase tested in test/events',
  'R-A-caas-wallet-verified': 'state move on the server; VERIFIED is a known value of verificationStatus',
  'R-A-risk-ingest-complete': 'test/accounts/client.test.ts: cryptoRisk.analyze polls until IDLE with persisted not null',
  'R-A-risk-empty-ingest': 'meaning of a score, documented on CryptoRiskSnapshot; no payload can break it',
  'R-A-token-issue-conditions':
    'the platform checks credential, certificate and IP at once; its refusals are mapped by refusalOf (test/runtime/token-request.test.ts)',
  'R-A-scopes-not-retroactive': 'a property of credentials on the platform; nothing a client sends can check it',
  'R-A-secret-not-frontend':
    'the secret never appears in logs or errors: test/runtime/secrets.test.ts (same runtime); the package is for servers (node:http, undici)',
  'R-A-auth-tls-failure': 'test/runtime/mtls.test.ts: handshake failures are AuthError with the TLS reason (same transport)',
  'R-A-limit-token-lifetime':
    'test/runtime/token-request.test.ts: expiresAt read as a lifetime or an instant; test/runtime/token-renewal.test.ts: renewal before expiry',
  'R-A-limit-certificates':
    'two active certificates is a platform limit; rotateCertificate presents the new one (test/runtime/mtls.test.ts)',
};

describe('coverage of the rules of interface A', () => {
  it('every rule of A in the inventory has a valid and an invalid case, a spec predicate, or is accounted for with a reason', () => {
    const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as {
      rules: { id: string; interface: string; alsoInterfaces?: string[] }[];
    };
    const rulesOfA = inventory.rules.filter((r) => r.interface === 'A' || r.alsoInterfaces?.includes('A')).map((r) => r.id);
    const withCases = new Map<string, Set<string>>();
    for (const c of [...documentCases, ...argsCases])
      withCases.set(c.rule, (withCases.get(c.rule) ?? new Set()).add(c.want === 'valid' ? 'valid' : 'invalid'));
    const incomplete = [...withCases].filter(([, kinds]) => kinds.size < 2).map(([rule]) => rule);
    expect(incomplete).toEqual([]);
    const bySpec = new Set(specRules.flatMap((rule) => rule.rules));
    const unaccounted = rulesOfA.filter((id) => !withCases.has(id) && !bySpec.has(id) && !coveredElsewhere[id]);
    expect(unaccounted).toEqual([]);
    const unknown = [...withCases.keys(), ...bySpec, ...Object.keys(coveredElsewhere)].filter((id) => !rulesOfA.includes(id));
    expect(unknown).toEqual([]);
    expect(rulesOfA.length).toBe(193);
  });
});
