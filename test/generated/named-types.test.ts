/**
 * The named types of every operation, as a user imports them from each interface's subpath (the subpath's
 * source here). The type checks are compile-time: `npm test` type-checks this file, so a named type of the
 * wrong shape, or one that is not the facade's own argument or result, fails it. The runtime part checks
 * that every operation of every document has its names, and that each subpath re-exports them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import type { JsonObject } from '../../scripts/openapi-model.js';
import { namedTypeStem } from '../../scripts/steps/named-types.js';
import { namedTypesOf } from '../../scripts/steps/operations.js';
import type {
  AccountsClient,
  CaasOrdersListItem,
  CaasOrdersListQuery,
  CaasOrdersListResult,
  TedCreateBody,
  TedCreateParams,
  TedCreateResult,
} from '../../src/accounts/index.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import type {
  CoreBankingClient,
  FeeRulesCreateBody,
  FeeRulesCreateParams,
  FeeRulesCreateResult,
  FeeRulesGetPath,
  FeeRulesGetResult,
  FeeRulesListItem,
  FeeRulesListResult,
  FeeRulesDeleteResult,
} from '../../src/core-banking/index.js';
import { interfaces } from '../../src/interfaces.js';
import type { MessagePayloads, MessagesClient, Pacs008SendBody, Pacs008SendParams, Pacs008SendResult } from '../../src/messages/index.js';
import type {
  CobGetResult,
  CobPayloadGetPath,
  CobReplaceBody,
  CobReplaceParams,
  CobReplacePath,
  CobReplaceResult,
  PixClient,
} from '../../src/pix/index.js';

/** True when each of A and B is assignable to the other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ArgumentOf<F> = F extends (args: infer A, ...rest: never[]) => unknown ? A : never;
type ResultOf<F> = F extends (...args: never[]) => PromiseLike<infer R> ? R : never;

describe('named types: the facade names them', () => {
  it('core banking: FeeRules* are the argument and result of client.feeRules.*', () => {
    type Create = CoreBankingClient['feeRules']['create'];
    expectTypeOf<FeeRulesCreateParams>().not.toBeAny();
    expectTypeOf<FeeRulesCreateResult>().not.toBeAny();
    expectTypeOf<Mutual<FeeRulesCreateParams, ArgumentOf<Create>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<FeeRulesCreateResult, ResultOf<Create>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<FeeRulesGetResult, ResultOf<CoreBankingClient['feeRules']['get']>>>().toEqualTypeOf<true>();
    // A bodiless success (204): the result is undefined.
    expectTypeOf<FeeRulesDeleteResult>().toEqualTypeOf<undefined>();
  });

  it('core banking: their shapes', () => {
    expectTypeOf<FeeRulesCreateParams['body']>().toEqualTypeOf<FeeRulesCreateBody>();
    expectTypeOf<FeeRulesCreateBody['name']>().toEqualTypeOf<string>();
    expectTypeOf<FeeRulesCreateBody['percent']>().toEqualTypeOf<number>();
    expectTypeOf<FeeRulesGetPath>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<FeeRulesListItem>().toEqualTypeOf<NonNullable<FeeRulesListResult['data']>[number]>();
    const body: FeeRulesCreateBody = { name: 'Tarifa Pix', percent: 0.99, minAmount: 0.5, maxAmount: 15 };
    // @ts-expect-error the platform assigns the weight: it is no member of the body (strict request)
    const weighted: FeeRulesCreateBody = { ...body, weight: 3 };
    // @ts-expect-error a creation needs its body
    const empty: FeeRulesCreateParams = {};
    expect([weighted, empty]).toHaveLength(2);
  });

  it('pix: Cob* of cob.replace, path and body required', () => {
    type Replace = PixClient['cob']['replace'];
    expectTypeOf<Mutual<CobReplaceParams, ArgumentOf<Replace>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<CobReplaceResult, ResultOf<Replace>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<CobGetResult, ResultOf<PixClient['cob']['get']>>>().toEqualTypeOf<true>();
    expectTypeOf<CobReplacePath['txid']>().toEqualTypeOf<string>();
    // The payload locations' operations (pix-location) are named under contrato/pix too.
    expectTypeOf<CobPayloadGetPath>().not.toBeAny();
    expectTypeOf<CobPayloadGetPath['pixUrlAccessToken']>().toEqualTypeOf<string>();
    expectTypeOf<CobReplaceParams['body']>().toEqualTypeOf<CobReplaceBody>();
    const args: CobReplaceParams = {
      path: { txid: 'pdv20241115loja01pedido0087' },
      body: { calendario: { expiracao: 3600 }, valor: { original: '58.90' }, chave: 'cobrancas@example.com' },
    };
    // @ts-expect-error the txid is a path parameter, required
    const withoutPath: CobReplaceParams = { body: args.body };
    expect(withoutPath).toBeDefined();
  });

  it('accounts: the idempotency key left to the runtime, pages typed by their item', () => {
    type Create = AccountsClient['ted']['create'];
    expectTypeOf<Mutual<TedCreateParams, ArgumentOf<Create>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<TedCreateResult, ResultOf<Create>>>().toEqualTypeOf<true>();
    const ted: TedCreateParams = { body: {} as TedCreateBody };
    expect(ted).toBeDefined();
    type Items = ReturnType<AccountsClient['caasOrders']['listItems']>;
    expectTypeOf<Items>().toEqualTypeOf<AsyncIterable<CaasOrdersListItem>>();
    expectTypeOf<CaasOrdersListItem>().toEqualTypeOf<NonNullable<CaasOrdersListResult['data']>[number]>();
    type ListArgument = NonNullable<ArgumentOf<AccountsClient['caasOrders']['list']>>;
    expectTypeOf<Mutual<CaasOrdersListQuery, NonNullable<ListArgument['query']>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<CaasOrdersListResult, ResultOf<AccountsClient['caasOrders']['list']>>>().toEqualTypeOf<true>();
  });

  it('messages: a message body is the payload of its name', () => {
    type Send = MessagesClient['pacs008']['send'];
    expectTypeOf<Mutual<Pacs008SendParams, ArgumentOf<Send>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Pacs008SendResult, ResultOf<Send>>>().toEqualTypeOf<true>();
    expectTypeOf<Mutual<Pacs008SendBody, MessagePayloads['pacs.008']>>().toEqualTypeOf<true>();
  });
});

describe('named types: every operation has them, every subpath exports them', () => {
  it.each(interfaces.map((info) => [info.name] as const))('%s: Params and Result of every operation in named-types.ts', (name) => {
    const bundle = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
    const barrel = readFileSync(join(projectRoot, 'generated', name, 'named-types.ts'), 'utf8');
    const exported = new Set([...barrel.matchAll(/^ {2}(\w+),$/gm)].map((match) => match[1]));
    const declared = namedTypesOf(bundle);
    expect([...exported]).toEqual(declared.map((type) => type.name));
    for (const operationId of new Set(declared.map((type) => type.operationId))) {
      expect(exported, operationId).toContain(`${namedTypeStem(operationId)}Params`);
      expect(exported, operationId).toContain(`${namedTypeStem(operationId)}Result`);
    }
  });

  // Every document's, pix-location's through contrato/pix with the readers of the payload locations.
  it.each(interfaces.map((info) => [info.interfaceName, info.name] as const))('contrato/%s re-exports those of %s', (subpath, name) => {
    const index = readFileSync(join(projectRoot, 'src', subpath, 'index.ts'), 'utf8');
    expect(index).toContain(`export type * from '../../generated/${name}/named-types.js';`);
  });
});
