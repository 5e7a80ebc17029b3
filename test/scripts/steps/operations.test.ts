/**
 * The operations step (scripts/steps/operations.ts): the operation table and the typed facade, emitted
 * with ts-morph. Each case gives an operation and the row the table must hold for it; the module is
 * imported from a scratch folder (its imports are type-only, so it runs without types.ts beside it).
 * Pagination (`x-pagination`) is covered with the runtime's paging, not here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { namedTypeStem } from '../../../scripts/steps/named-types.js';
import { emitNamedTypes, emitOperations, namedTypesOf } from '../../../scripts/steps/operations.js';
import { documentOf, fragmentSource, operationAt, scratchDir, squeezed } from './fragments.js';

const scratch = scratchDir('operations-step');
afterAll(() => scratch.remove());

interface FakeRuntime {
  readonly calls: unknown[][];
  invoke(...args: unknown[]): unknown;
  pages(...args: unknown[]): unknown;
}
interface OperationsModule {
  readonly operationTable: Record<string, Record<string, unknown>>;
  readonly messageTable?: Record<string, unknown>;
  readonly eventTable?: Record<string, unknown>;
}
type Facade = Record<string, Record<string, (...args: unknown[]) => unknown>>;

/** The facade factory the module exports under `create<Name>Facade`, called over a runtime. */
function facadeOf(module: OperationsModule, Name: string, runtime: FakeRuntime): Facade {
  const create = (module as unknown as Record<string, unknown>)[`create${Name}Facade`];
  expect(create, `create${Name}Facade`).toBeTypeOf('function');
  return (create as (runtime: FakeRuntime) => Facade)(runtime);
}

async function emitted(spec: JsonObject, identifier = 'pets'): Promise<OperationsModule> {
  return scratch.import<OperationsModule>('operations.ts', emitOperations(spec, identifier, fragmentSource));
}

const securitySchemes = {
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://pets.invalid/token', scopes: { 'pets.read': 'read' } } } },
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
  mtls: { type: 'mutualTLS' },
};
const uuidHeader = (name: string, required = true): JsonObject => ({ name, in: 'header', required, schema: { type: 'string' } });

interface RowCase {
  readonly given: string;
  readonly spec: JsonObject;
  readonly operationId: string;
  /** Fields of the row, exactly as the table must hold them (the others are other cases' business). */
  readonly want: Record<string, unknown>;
}

const rowCases: RowCase[] = [
  {
    given: 'a GET with path-level and operation-level parameters',
    spec: documentOf({
      paths: {
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            operationId: 'pets.get',
            summary: 'One pet',
            parameters: [
              { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
              { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            ],
            responses: { '200': { description: 'ok' }, '404': { description: 'none' }, default: { description: 'other' } },
          },
        },
      },
    }),
    operationId: 'pets.get',
    want: {
      operationId: 'pets.get',
      group: 'pets',
      name: 'get',
      method: 'get',
      path: '/pets/{petId}',
      summary: 'One pet',
      parameters: [
        { name: 'petId', in: 'path', required: true, type: 'string' },
        { name: 'verbose', in: 'query', required: false, type: 'boolean' },
        { name: 'fields', in: 'query', required: false, type: 'array' },
      ],
      requestBody: null,
      responseStatuses: ['200', '404', 'default'],
      scopes: [],
      secured: false,
      basicAuth: false,
      idempotencyKeyRule: null,
      accountHeader: null,
      provisional: false,
      errorTypes: [],
      message: null,
      idempotencyBodyField: null,
      jwsPayload: null,
    },
  },
  {
    given: 'query parameters declaring style and explode, recorded as declared; the others and simple paths as before',
    spec: documentOf({
      paths: {
        '/pets/{petId}': {
          get: {
            operationId: 'pets.get',
            parameters: [
              { name: 'petId', in: 'path', required: true, style: 'simple', schema: { type: 'string' } },
              { name: 'ids', in: 'query', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'string' } } },
              { name: 'tags', in: 'query', style: 'spaceDelimited', explode: false, schema: { type: 'array' } },
              { name: 'codes', in: 'query', explode: false, schema: { type: 'array' } },
              { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
              { name: 'q', in: 'query', style: 'form', schema: { type: 'string' } },
              { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    }),
    operationId: 'pets.get',
    want: {
      parameters: [
        { name: 'petId', in: 'path', required: true, type: 'string' },
        { name: 'ids', in: 'query', required: false, type: 'array', style: 'pipeDelimited' },
        { name: 'tags', in: 'query', required: false, type: 'array', style: 'spaceDelimited', explode: false },
        { name: 'codes', in: 'query', required: false, type: 'array', explode: false },
        { name: 'filter', in: 'query', required: false, type: 'object', style: 'deepObject', explode: true },
        { name: 'q', in: 'query', required: false, type: 'string', style: 'form' },
        { name: 'verbose', in: 'query', required: false, type: 'boolean' },
      ],
    },
  },
  {
    given: 'an operation-level parameter overriding a path-level one of the same name',
    spec: documentOf({
      paths: {
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            operationId: 'pets.get',
            parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    }),
    operationId: 'pets.get',
    want: { parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer' }] },
  },
  {
    given: 'OAuth2 with scopes alongside mutual TLS',
    spec: documentOf({
      components: { securitySchemes },
      paths: operationAt('/pets', { operationId: 'pets.list', security: [{ mtls: [], oauth: ['pets.read', 'pets.write'] }] }),
    }),
    operationId: 'pets.list',
    want: { scopes: ['pets.read', 'pets.write'], secured: true, basicAuth: false },
  },
  {
    given: 'security inherited from the document (HTTP bearer, no scopes)',
    spec: documentOf({
      components: { securitySchemes },
      security: [{ bearer: [] }],
      paths: operationAt('/pets', { operationId: 'pets.list' }),
    }),
    operationId: 'pets.list',
    want: { scopes: [], secured: true, basicAuth: false },
  },
  {
    given: 'mutual TLS alone: the transport authenticates, no token',
    spec: documentOf({
      components: { securitySchemes },
      security: [{ mtls: [] }],
      paths: operationAt('/pets', { operationId: 'pets.list' }),
    }),
    operationId: 'pets.list',
    want: { scopes: [], secured: false, basicAuth: false },
  },
  {
    given: 'HTTP Basic (the OAuth token request of the API Pix)',
    spec: documentOf({
      components: { securitySchemes },
      security: [{ oauth: ['pets.read'] }],
      paths: operationAt('/oauth/token', { operationId: 'auth.token', security: [{ basic: [] }] }, 'post'),
    }),
    operationId: 'auth.token',
    want: { method: 'post', scopes: [], secured: false, basicAuth: true },
  },
  {
    given: 'x-idempotency-key naming a header with length and pattern limits',
    spec: documentOf({
      paths: operationAt(
        '/pets',
        {
          operationId: 'pets.create',
          'x-idempotency-key': 'Idempotency-Key',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              schema: { type: 'string', minLength: 8, maxLength: 50, pattern: '^[a-zA-Z0-9]+$' },
            },
          ],
        },
        'post',
      ),
    }),
    operationId: 'pets.create',
    want: { idempotencyKeyRule: { header: 'Idempotency-Key', minLength: 8, maxLength: 50, pattern: '^[a-zA-Z0-9]+$' } },
  },
  {
    given: 'x-idempotency-key naming a header without limits',
    spec: documentOf({
      paths: operationAt(
        '/pets',
        { operationId: 'pets.create', 'x-idempotency-key': 'X-Key', parameters: [uuidHeader('X-Key', false)] },
        'post',
      ),
    }),
    operationId: 'pets.create',
    want: { idempotencyKeyRule: { header: 'X-Key', minLength: null, maxLength: null, pattern: null } },
  },
  {
    given: 'a required JSON request body',
    spec: documentOf({
      paths: operationAt(
        '/pets',
        { operationId: 'pets.create', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } },
        'post',
      ),
    }),
    operationId: 'pets.create',
    want: { requestBody: { mediaType: 'application/json', required: true } },
  },
  {
    given: 'an optional url-encoded form body',
    spec: documentOf({
      paths: operationAt(
        '/oauth/token',
        { operationId: 'auth.token', requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } } },
        'post',
      ),
    }),
    operationId: 'auth.token',
    want: { requestBody: { mediaType: 'application/x-www-form-urlencoded', required: false } },
  },
  {
    given: 'an account header, whatever its case',
    spec: documentOf({ paths: operationAt('/balance', { operationId: 'accounts.balance', parameters: [uuidHeader('x-Account-ID')] }) }),
    operationId: 'accounts.balance',
    want: { accountHeader: 'x-Account-ID' },
  },
  {
    given: 'a provisional path (x-provisional)',
    spec: documentOf({
      paths: operationAt('/guessed', { operationId: 'pets.guessed', 'x-provisional': true, 'x-provisional-reason': 'path not shown' }),
    }),
    operationId: 'pets.guessed',
    want: { provisional: true },
  },
  {
    given: 'the error types, JWS payload, body idempotency field and message name of the operation',
    spec: documentOf({
      components: { schemas: { PetCreated: { type: 'object' } } },
      paths: operationAt(
        '/pets',
        {
          operationId: 'pets.notify',
          'x-error-types': ['https://pets.invalid/errors/duplicate', 'https://pets.invalid/errors/closed'],
          'x-jws-payload': 'PetCreated',
          'x-idempotency-body-field': 'requestId',
          'x-message': 'PetCreated',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/PetCreated' } } } },
        },
        'post',
      ),
    }),
    operationId: 'pets.notify',
    want: {
      errorTypes: ['https://pets.invalid/errors/duplicate', 'https://pets.invalid/errors/closed'],
      jwsPayload: 'PetCreated',
      idempotencyBodyField: 'requestId',
      message: 'PetCreated',
    },
  },
];

describe('emitOperations: the operation row', () => {
  it.each(rowCases)('$given', async ({ spec, operationId, want }) => {
    const { operationTable } = await emitted(spec);
    expect(Object.keys(operationTable)).toContain(operationId);
    const row = operationTable[operationId]!;
    for (const [field, value] of Object.entries(want)) expect(row[field], field).toEqual(value);
  });
});

describe('emitOperations: the facade', () => {
  const spec = documentOf({
    paths: {
      ...operationAt('/pets', { operationId: 'pets.list' }),
      '/pets/{petId}': {
        get: {
          operationId: 'pets.get',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
        delete: {
          operationId: 'pets.remove',
          summary: 'Remove a pet',
          'x-provisional': true,
          'x-provisional-reason': 'the provider shows no path',
          'x-idempotency-key': 'Idempotency-Key',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }, uuidHeader('Idempotency-Key')],
          responses: { '204': { description: 'gone' } },
        },
      },
      ...operationAt(
        '/owners',
        { operationId: 'petOwners.create', parameters: [uuidHeader('Idempotency-Key')], 'x-idempotency-key': 'Idempotency-Key' },
        'post',
      ),
    },
  });

  it('has one group per prefix of the operationIds and one method per name, named create<Identifier>Facade', async () => {
    const module = await emitted(spec, 'petShop');
    const facade = facadeOf(module, 'PetShop', { calls: [], invoke: () => undefined, pages: () => undefined });
    expect(Object.fromEntries(Object.entries(facade).map(([group, methods]) => [group, Object.keys(methods)]))).toEqual({
      pets: ['list', 'get', 'remove'],
      petOwners: ['create'],
    });
  });

  it('sends each call through runtime.invoke with its operationId, arguments and options', async () => {
    const module = await emitted(spec, 'petShop');
    const runtime: FakeRuntime = {
      calls: [],
      invoke(...args) {
        this.calls.push(args);
        return 'sent';
      },
      pages: () => undefined,
    };
    const facade = facadeOf(module, 'PetShop', runtime);
    expect(facade.pets!.get!({ path: { petId: 'rex' } }, { timeoutMs: 5 })).toBe('sent');
    facade.pets!.list!();
    expect(runtime.calls).toEqual([
      ['pets.get', { path: { petId: 'rex' } }, { timeoutMs: 5 }],
      ['pets.list', {}, undefined],
    ]);
  });

  it('types the arguments: optional when nothing is required, the idempotency header left to the runtime', () => {
    const code = squeezed(emitOperations(spec, 'petShop', fragmentSource));
    expect(code).toContain('export type PetShopOperationId = keyof typeof operationTable;');
    expect(code).toContain('export function createPetShopFacade(runtime: FacadeRuntime) {');
    expect(code).toContain('export type PetShopFacade = ReturnType<typeof createPetShopFacade>;');
    // Each signature names the operation's named types, declared from operations[...] with the runtime contract.
    expect(code).toContain('list: (args: PetsListParams = {}, options?: CallOptions): CallPromise<PetsListResult>');
    expect(code).toContain('export type PetsListParams = OperationArgs<operations["pets.list"]>;');
    expect(code).toContain('get: (args: PetsGetParams, options?: CallOptions): CallPromise<PetsGetResult>');
    expect(code).toContain('export type PetsGetParams = OperationArgs<operations["pets.get"]>;');
    expect(code).toContain('remove: (args: PetsRemoveParams, options?: CallOptions)');
    expect(code).toContain('export type PetsRemoveParams = OperationArgs<operations["pets.remove"], "Idempotency-Key">;');
    // The only required header is the idempotency key, which the runtime generates: arguments stay optional.
    expect(code).toContain('create: (args: PetOwnersCreateParams = {}, options?: CallOptions)');
    expect(code).toContain('export type PetOwnersCreateParams = OperationArgs<operations["petOwners.create"], "Idempotency-Key">;');
  });

  it('documents each method: summary, method and path, provisional reason, idempotency', () => {
    const code = squeezed(emitOperations(spec, 'petShop', fragmentSource));
    expect(code).toContain(
      '/** * Remove a pet * * `DELETE /pets/{petId}` * * **Provisional**: the provider shows no path * * Idempotent: the runtime sends `Idempotency-Key` (generated when not given) and reuses it on retries. */ remove:',
    );
    expect(code).toContain('/** * pets.list * * `GET /pets` */ list:');
  });

  it('starts with the banner naming the operations step and the spec', () => {
    expect(emitOperations(spec, 'petShop', fragmentSource)).toMatch(
      /^\/\* generated by npm run regenerate \(step: operations, from specs\/fragment\/openapi\.yaml\); do not edit by hand \*\/\n/,
    );
  });

  it('imports the runtime contract type-only, from src/runtime/contract.ts', () => {
    const code = emitOperations(spec, 'petShop', fragmentSource);
    expect(code).toMatch(/^import type \{ [^}]*FacadeRuntime[^}]* \} from "\.\.\/\.\.\/src\/runtime\/contract\.js";$/m);
    expect(code).toContain('import type { operations } from "./types.js";');
    expect(code).not.toMatch(/^import (?!type )/m);
  });
});

describe('emitOperations: message and event tables', () => {
  it('lists every x-message with the operation that sends it and the schema of its body', async () => {
    const spec = documentOf({
      components: { schemas: { Ping: { type: 'object' } } },
      paths: operationAt(
        '/ping',
        {
          operationId: 'messages.ping',
          'x-message': 'PING',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Ping' } } } },
        },
        'post',
      ),
    });
    const module = await emitted(spec);
    expect(module.messageTable).toEqual({ PING: { message: 'PING', operationId: 'messages.ping', schema: 'Ping' } });
    expect(squeezed(emitOperations(spec, 'pets', fragmentSource))).toContain(
      'export interface MessagePayloads { "PING": components["schemas"]["Ping"]; }',
    );
  });

  it('lists every webhook with the schema of its payload', async () => {
    const spec = documentOf({
      components: { schemas: { PetBorn: { type: 'object' } } },
      webhooks: {
        'pet.born': {
          post: {
            operationId: 'events.petBorn',
            summary: 'A pet is born',
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/PetBorn' } } } },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    const module = await emitted(spec);
    expect(module.eventTable).toEqual({
      'pet.born': { type: 'pet.born', schema: 'PetBorn', operationId: 'events.petBorn', summary: 'A pet is born' },
    });
    expect(module.messageTable).toBeUndefined();
  });
});

describe('emitOperations: the named types of every operation', () => {
  const spec = documentOf({
    paths: {
      ...operationAt('/pets', {
        operationId: 'pets.list',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'size', in: 'query', schema: { type: 'integer' } },
        ],
        'x-pagination': { style: 'full-page', page: 'page', size: 'size', items: 'pets' },
        responses: {
          '200': {
            description: 'a page',
            content: {
              'application/json': { schema: { type: 'object', properties: { pets: { type: 'array', items: { type: 'string' } } } } },
            },
          },
        },
      }),
      '/pets/{petId}': {
        put: {
          operationId: 'pets.replace',
          'x-idempotency-key': 'Idempotency-Key',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }, uuidHeader('Idempotency-Key')],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '204': { description: 'replaced' } },
        },
      },
      ...operationAt(
        '/token',
        {
          operationId: 'auth.token',
          requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } },
        },
        'post',
      ),
    },
  });

  interface Case {
    readonly operationId: string;
    /** name -> the type it must be declared as */
    readonly want: Record<string, string>;
  }
  const cases: Case[] = [
    {
      operationId: 'pets.list',
      want: {
        PetsListParams: 'OperationArgs<operations["pets.list"]>',
        PetsListQuery: 'NonNullable<operations["pets.list"]["parameters"]["query"]>',
        PetsListResult: 'OperationResult<operations["pets.list"]>',
        PetsListItem: 'PageItem<PetsListResult, "pets">',
      },
    },
    {
      operationId: 'pets.replace',
      want: {
        PetsReplaceParams: 'OperationArgs<operations["pets.replace"], "Idempotency-Key">',
        PetsReplacePath: 'NonNullable<operations["pets.replace"]["parameters"]["path"]>',
        PetsReplaceBody: 'NonNullable<operations["pets.replace"]["requestBody"]>["content"]["application/json"]',
        PetsReplaceResult: 'OperationResult<operations["pets.replace"]>',
      },
    },
    {
      operationId: 'auth.token',
      want: {
        AuthTokenParams: 'OperationArgs<operations["auth.token"]>',
        AuthTokenBody: 'NonNullable<operations["auth.token"]["requestBody"]>["content"]["application/x-www-form-urlencoded"]',
        AuthTokenResult: 'OperationResult<operations["auth.token"]>',
      },
    },
  ];

  it.each(cases)('$operationId: <Group><Name><Suffix>, only the parts it has', ({ operationId, want }) => {
    const declared = namedTypesOf(spec).filter((type) => type.operationId === operationId);
    expect(Object.fromEntries(declared.map((type) => [type.name, type.type]))).toEqual(want);
    const code = squeezed(emitOperations(spec, 'pets', fragmentSource));
    for (const [name, type] of Object.entries(want)) expect(code).toContain(`export type ${name} = ${type};`);
  });

  it('documents each with its call, its route and what it is', () => {
    expect(squeezed(emitOperations(spec, 'pets', fragmentSource))).toContain(
      '/** Body of `client.pets.replace()` (`PUT /pets/{petId}`): its request body (when it has one). */ export type PetsReplaceBody',
    );
  });

  it('types the paginated walks with the page and its item', () => {
    const code = squeezed(emitOperations(spec, 'pets', fragmentSource));
    expect(code).toContain('listPages: (args: PetsListParams = {}, options?: CallOptions): AsyncIterable<PetsListResult>');
    expect(code).toContain('listItems: (args: PetsListParams = {}, options?: CallOptions): AsyncIterable<PetsListItem>');
  });

  it('re-exports every one, type-only, from named-types.ts with the banner of the operations step', () => {
    const barrel = emitNamedTypes(spec, fragmentSource);
    expect(barrel).toMatch(
      /^\/\* generated by npm run regenerate \(step: operations, from specs\/fragment\/openapi\.yaml\); do not edit by hand \*\/\n/,
    );
    const names = [...barrel.matchAll(/^ {2}(\w+),$/gm)].map((match) => match[1]);
    expect(names).toEqual(namedTypesOf(spec).map((type) => type.name));
    expect(squeezed(barrel)).toContain('} from "./operations.js";');
    expect(barrel).toContain('export type {');
  });

  it('names the stem after both parts of the operationId', () => {
    expect(['feeRules.create', 'cob.get', 'pacs008.send', 'rec.getPayload'].map(namedTypeStem)).toEqual([
      'FeeRulesCreate',
      'CobGet',
      'Pacs008Send',
      'RecGetPayload',
    ]);
  });

  it('refuses two operationIds that would make the same names', () => {
    const spec = documentOf({
      paths: { ...operationAt('/a', { operationId: 'petsList.get' }), ...operationAt('/b', { operationId: 'pets.listGet' }) },
    });
    expect(() => emitOperations(spec, 'pets', fragmentSource)).toThrow(
      'pets.listGet and petsList.get both get the named type PetsListGetParams: rename one operationId',
    );
  });
});

const listStyles = 'form, spaceDelimited or pipeDelimited (src/runtime/query.ts)';
/** Parameter styles the runtime cannot send, or the checking path not read back alike (src/runtime/query.ts). */
const styleRefusals: readonly { given: string; parameter: JsonObject; want: string }[] = [
  {
    given: 'a query list in the matrix style (a path style)',
    parameter: { name: 'ids', in: 'query', style: 'matrix', schema: { type: 'array' } },
    want: `query parameter ids (of type array) declares style "matrix", which the runtime cannot send and read back: it sends a parameter of type array as ${listStyles}`,
  },
  {
    given: 'a query list in the label style',
    parameter: { name: 'ids', in: 'query', style: 'label', schema: { type: 'array' } },
    want: `query parameter ids (of type array) declares style "label", which the runtime cannot send and read back: it sends a parameter of type array as ${listStyles}`,
  },
  {
    given: 'a query value in the simple style (a header and path style)',
    parameter: { name: 'q', in: 'query', style: 'simple', schema: { type: 'string' } },
    want: 'query parameter q (of type string) declares style "simple", which the runtime cannot send and read back: it sends a parameter of type string as form (src/runtime/query.ts)',
  },
  {
    given: 'deepObject on a list',
    parameter: { name: 'ids', in: 'query', style: 'deepObject', schema: { type: 'array' } },
    want: `query parameter ids (of type array) declares style "deepObject", which the runtime cannot send and read back: it sends a parameter of type array as ${listStyles}`,
  },
  {
    given: 'spaceDelimited on one value',
    parameter: { name: 'q', in: 'query', style: 'spaceDelimited', schema: { type: 'string' } },
    want: 'query parameter q (of type string) declares style "spaceDelimited", which the runtime cannot send and read back: it sends a parameter of type string as form (src/runtime/query.ts)',
  },
  {
    given: 'pipeDelimited on a schema without a type (a $ref is not followed: the table records the own type)',
    parameter: { name: 'ids', in: 'query', style: 'pipeDelimited', schema: { $ref: '#/components/schemas/Ids' } },
    want: 'query parameter ids (without a type) declares style "pipeDelimited", which the runtime cannot send and read back: it sends a parameter without a type as form (src/runtime/query.ts)',
  },
  {
    given: 'an object in the default style (form: its members would come as parameters of their own)',
    parameter: { name: 'filter', in: 'query', schema: { type: 'object' } },
    want: 'query parameter filter (of type object) has no style (form by default), which the runtime cannot send and read back: it sends a parameter of type object as deepObject (src/runtime/query.ts)',
  },
  {
    given: 'deepObject not exploded',
    parameter: { name: 'filter', in: 'query', style: 'deepObject', explode: false, schema: { type: 'object' } },
    want: 'query parameter filter declares style deepObject with explode false, which the runtime cannot send: it sends deepObject exploded only',
  },
  {
    given: 'explode that is not a boolean',
    parameter: { name: 'ids', in: 'query', explode: 'yes', schema: { type: 'array' } },
    want: 'query parameter ids declares explode "yes": it is true or false',
  },
  {
    given: 'a header in the form style',
    parameter: { name: 'X-Tags', in: 'header', style: 'form', schema: { type: 'array' } },
    want: 'header parameter X-Tags declares style "form", which the runtime cannot send: it sends header parameters as simple',
  },
  {
    given: 'a path parameter in the label style',
    parameter: { name: 'petId', in: 'path', required: true, style: 'label', schema: { type: 'string' } },
    want: 'path parameter petId declares style "label", which the runtime cannot send: it sends path parameters as simple',
  },
];

describe('emitOperations: what it refuses', () => {
  it.each([
    { given: 'an operationId without a group', operationId: 'getPet' },
    { given: 'an operationId with two dots', operationId: 'pets.get.one' },
    { given: 'a capitalised group', operationId: 'Pets.get' },
    { given: 'a kebab-case name', operationId: 'pets.get-one' },
    { given: 'a snake_case name', operationId: 'pets.get_one' },
  ])('$given ($operationId)', ({ operationId }) => {
    const spec = documentOf({ paths: operationAt('/pets', { operationId }) });
    expect(() => emitOperations(spec, 'pets', fragmentSource)).toThrow(`operationId ${operationId} is not <group>.<name> in camelCase`);
  });

  it.each([
    {
      given: 'x-idempotency-key naming a header the operation does not have',
      operation: { operationId: 'pets.create', 'x-idempotency-key': 'Idempotency-Key', parameters: [uuidHeader('X-Other')] },
      want: 'pets.create: x-idempotency-key names Idempotency-Key, which is not a header parameter',
    },
    {
      given: 'x-idempotency-key naming a query parameter',
      operation: {
        operationId: 'pets.create',
        'x-idempotency-key': 'key',
        parameters: [{ name: 'key', in: 'query', schema: { type: 'string' } }],
      },
      want: 'pets.create: x-idempotency-key names key, which is not a header parameter',
    },
    {
      given: 'x-message on a body that is not a component schema',
      operation: {
        operationId: 'pets.create',
        'x-message': 'PING',
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
      },
      want: 'pets.create: x-message needs a body that is a component schema',
    },
    {
      given: 'an operation without operationId',
      operation: { summary: 'nameless' },
      want: 'POST /pets has no operationId',
    },
    ...styleRefusals.map(({ given, parameter, want }) => ({
      given,
      operation: { operationId: 'pets.create', parameters: [parameter] },
      want: `${fragmentSource}: pets.create: ${want}`,
    })),
  ])('$given', ({ operation, want }) => {
    const spec = documentOf({ paths: operationAt('/pets', operation as JsonObject, 'post') });
    expect(() => emitOperations(spec, 'pets', fragmentSource)).toThrow(want);
  });
});
