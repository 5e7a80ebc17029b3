/**
 * The validators step (scripts/steps/validators.ts): ajv standalone code for every component schema,
 * parameter location, request body and response body. Each case emits the module for a fragment,
 * imports it from a scratch folder and says which samples it accepts and how it rejects the others.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { emitValidators } from '../../../scripts/steps/validators.js';
import { documentOf, fragmentSource, relocatedValidators, scratchDir } from './fragments.js';

const scratch = scratchDir('validators-step');
afterAll(() => scratch.remove());

interface Validator {
  (data: unknown): boolean;
  errors?: { keyword: string; instancePath: string; params: Record<string, unknown> }[] | null;
}
interface ValidatorsModule {
  readonly validators: {
    readonly schemas: Record<string, Validator>;
    readonly operations: Record<
      string,
      { body: Validator | null; parameters: Partial<Record<'path' | 'query' | 'header', Validator>>; responses: Record<string, Validator> }
    >;
  };
  readonly patternDescriptions: Record<string, string>;
}

async function emitted(spec: JsonObject): Promise<ValidatorsModule> {
  return scratch.import<ValidatorsModule>('validators.js', relocatedValidators(emitValidators(spec, 'fragment', fragmentSource).code));
}

interface ValidatorCase {
  readonly given: string;
  readonly spec: JsonObject;
  /** Which validator of the module: a component schema, or an operation's parameter location, body or response. */
  readonly pick: (module: ValidatorsModule) => Validator | null | undefined;
  readonly valid: readonly unknown[];
  readonly invalid: readonly { value: unknown; error: { keyword: string; instancePath?: string; params?: Record<string, unknown> } }[];
}

const schemas = (members: JsonObject): JsonObject => documentOf({ components: { schemas: members } });
const schema = (name: string) => (module: ValidatorsModule) => module.validators.schemas[name];
const validCpf = '52998224725';

/** GET /pets/{petId} with a path parameter, an optional query parameter and a header; POST /pets with a body. */
const petsApi = documentOf({
  paths: {
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string', maxLength: 4 } }],
      get: {
        operationId: 'pets.get',
        parameters: [
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
          { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          '404': { description: 'none', content: { 'application/problem+json': { schema: { type: 'object', required: ['title'] } } } },
        },
      },
    },
    '/pets': {
      post: {
        operationId: 'pets.create',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
  },
  components: {
    schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, additionalProperties: false } },
  },
});
const operation = (id: string) => (module: ValidatorsModule) => module.validators.operations[id];

const cases: ValidatorCase[] = [
  {
    given: 'an object with required and optional members, closed',
    spec: schemas({
      Pet: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
        additionalProperties: false,
      },
    }),
    pick: schema('Pet'),
    valid: [{ name: 'Rex' }, { name: 'Rex', age: 3 }],
    invalid: [
      { value: {}, error: { keyword: 'required', instancePath: '', params: { missingProperty: 'name' } } },
      { value: { name: 'Rex', age: -1 }, error: { keyword: 'minimum', instancePath: '/age' } },
      { value: { name: 'Rex', colour: 'red' }, error: { keyword: 'additionalProperties', params: { additionalProperty: 'colour' } } },
    ],
  },
  {
    given: 'an enum',
    spec: schemas({ Kind: { type: 'string', enum: ['cat', 'dog'] } }),
    pick: schema('Kind'),
    valid: ['cat', 'dog'],
    invalid: [{ value: 'cow', error: { keyword: 'enum', params: { allowedValues: ['cat', 'dog'] } } }],
  },
  {
    given: 'x-known-values (an annotation of response-only values, not a constraint)',
    spec: schemas({ Status: { type: 'string', 'x-known-values': ['ACTIVE'] } }),
    pick: schema('Status'),
    valid: ['ACTIVE', 'SOMETHING_NEW'],
    invalid: [{ value: 1, error: { keyword: 'type' } }],
  },
  {
    given: 'a nullable member',
    spec: schemas({ Owner: { type: ['string', 'null'] } }),
    pick: schema('Owner'),
    valid: ['Ana', null],
    invalid: [{ value: 1, error: { keyword: 'type', params: { type: ['string', 'null'] } } }],
  },
  {
    given: "a contrato format (cpf), checked by src/formats' own function",
    spec: schemas({ Document: { type: 'string', format: 'cpf' } }),
    pick: schema('Document'),
    valid: [validCpf],
    invalid: [
      { value: '52998224724', error: { keyword: 'format', params: { format: 'cpf' } } },
      { value: '5299822472', error: { keyword: 'format', params: { format: 'cpf' } } },
    ],
  },
  {
    given: 'a standard format (uuid, from ajv-formats)',
    spec: schemas({ Id: { type: 'string', format: 'uuid' } }),
    pick: schema('Id'),
    valid: ['3f2504e0-4f89-41d3-9a0c-0305e82c3301'],
    invalid: [{ value: 'not-a-uuid', error: { keyword: 'format', params: { format: 'uuid' } } }],
  },
  {
    given: 'a pattern (with its x-pattern-description)',
    spec: schemas({ Code: { type: 'string', pattern: '^[A-Z]{3}$', 'x-pattern-description': 'three capital letters' } }),
    pick: schema('Code'),
    valid: ['BRL'],
    invalid: [{ value: 'brl', error: { keyword: 'pattern', params: { pattern: '^[A-Z]{3}$' } } }],
  },
  {
    given: 'a $ref to another component',
    spec: schemas({
      Owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
      Pet: { type: 'object', properties: { owner: { $ref: '#/components/schemas/Owner' } } },
    }),
    pick: schema('Pet'),
    valid: [{ owner: { email: 'ana@example.com' } }],
    invalid: [{ value: { owner: { email: 'ana' } }, error: { keyword: 'format', instancePath: '/owner/email' } }],
  },
  {
    given: 'a property named like an extension (x-…): a name, not a keyword, so it is kept',
    spec: schemas({ Trace: { type: 'object', required: ['x-trace'], properties: { 'x-trace': { type: 'string' } } } }),
    pick: schema('Trace'),
    valid: [{ 'x-trace': 'abc' }],
    invalid: [
      { value: {}, error: { keyword: 'required', params: { missingProperty: 'x-trace' } } },
      { value: { 'x-trace': 1 }, error: { keyword: 'type', instancePath: '/x-trace' } },
    ],
  },
  {
    given: 'path parameters (path-level ones merged in): strict, unknown names rejected',
    spec: petsApi,
    pick: (module) => operation('pets.get')(module)?.parameters.path,
    valid: [{ petId: 'rex' }],
    invalid: [
      { value: {}, error: { keyword: 'required', params: { missingProperty: 'petId' } } },
      { value: { petId: 'rexxx' }, error: { keyword: 'maxLength', instancePath: '/petId' } },
      { value: { petId: 'rex', other: 'x' }, error: { keyword: 'additionalProperties' } },
    ],
  },
  {
    given: 'query parameters: optional ones may be absent, unknown names rejected',
    spec: petsApi,
    pick: (module) => operation('pets.get')(module)?.parameters.query,
    valid: [{}, { verbose: true }],
    invalid: [
      { value: { verbose: 'yes' }, error: { keyword: 'type', instancePath: '/verbose' } },
      { value: { page: 1 }, error: { keyword: 'additionalProperties', params: { additionalProperty: 'page' } } },
    ],
  },
  {
    given: 'header parameters: open, other headers pass',
    spec: petsApi,
    pick: (module) => operation('pets.get')(module)?.parameters.header,
    valid: [{ 'X-Request-Id': '3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'X-Other': 'anything' }],
    invalid: [{ value: { 'X-Request-Id': 'nope' }, error: { keyword: 'format', instancePath: '/X-Request-Id' } }],
  },
  {
    given: 'a request body that is a component schema',
    spec: petsApi,
    pick: (module) => operation('pets.create')(module)?.body,
    valid: [{ name: 'Rex' }],
    invalid: [{ value: { name: 'Rex', age: 3 }, error: { keyword: 'additionalProperties', params: { additionalProperty: 'age' } } }],
  },
  {
    given: 'a problem+json response body',
    spec: petsApi,
    pick: (module) => operation('pets.get')(module)?.responses['404'],
    valid: [{ title: 'No such pet' }],
    invalid: [{ value: {}, error: { keyword: 'required', params: { missingProperty: 'title' } } }],
  },
];

describe('emitValidators: the emitted module accepts and rejects', () => {
  it.each(cases)('$given', async ({ spec, pick, valid, invalid }) => {
    const validate = pick(await emitted(spec));
    expect(validate).toBeTypeOf('function');
    for (const value of valid) expect(validate!(value), `accepts ${JSON.stringify(value)}: ${JSON.stringify(validate!.errors)}`).toBe(true);
    for (const { value, error } of invalid) {
      expect(validate!(value), `rejects ${JSON.stringify(value)}`).toBe(false);
      expect(validate!.errors).toContainEqual(expect.objectContaining(error));
    }
  });
});

describe('emitValidators: the module and its declarations', () => {
  it('names a validator per component, parameter location, body and JSON response; none for what the operation lacks', async () => {
    const { names } = emitValidators(petsApi, 'fragment', fragmentSource);
    expect(names).toEqual({
      schemas: { Pet: 'schema_Pet' },
      operations: {
        'pets.get': {
          body: null,
          parameters: { path: 'operation_pets_get_path', query: 'operation_pets_get_query', header: 'operation_pets_get_header' },
          responses: { '200': 'operation_pets_get_response__200', '404': 'operation_pets_get_response__404' },
        },
        'pets.create': { body: 'operation_pets_create_body', parameters: {}, responses: {} },
      },
    });
    const module = await emitted(petsApi);
    expect(module.validators.operations['pets.create']!.body).toBeTypeOf('function');
    expect(Object.keys(module.validators.operations['pets.create']!.responses)).toEqual([]);
  });

  it('declares each validator with the type openapi-typescript gives its value', () => {
    const { declarations } = emitValidators(petsApi, 'fragment', fragmentSource);
    for (const line of [
      'import type { components, operations } from "./types.js";',
      'export declare const schema_Pet: Validator<components["schemas"]["Pet"]>;',
      'export declare const operation_pets_get_path: Validator<NonNullable<operations["pets.get"]["parameters"]["path"]>>;',
      'export declare const operation_pets_create_body: Validator<NonNullable<operations["pets.create"]["requestBody"]>["content"]["application/json"]>;',
      'export declare const operation_pets_get_response__404: Validator<operations["pets.get"]["responses"][404]["content"]["application/problem+json"]>;',
      'export declare const patternDescriptions: Readonly<Record<string, string>>;',
    ])
      expect(declarations).toContain(line);
  });

  it('starts the module and its declarations with the banner naming the validators step and the spec', () => {
    const { code, declarations } = emitValidators(petsApi, 'fragment', fragmentSource);
    const banner = '/* generated by npm run regenerate (step: validators, from specs/fragment/openapi.yaml); do not edit by hand */\n';
    expect(code.startsWith(banner), code.slice(0, 200)).toBe(true);
    expect(declarations.startsWith(banner), declarations.slice(0, 200)).toBe(true);
  });

  it('takes its formats from src/formats/validator-formats.ts, the table `contrato format` uses', () => {
    const { code } = emitValidators(schemas({ Document: { type: 'string', format: 'cpf' } }), 'fragment', fragmentSource);
    expect(code).toContain('import { validatorFormats as contratoFormats } from "../../src/formats/validator-formats.js";');
    expect(code).toContain('contratoFormats.cpf');
  });

  it('exports what every pattern accepts in plain words, sorted by pattern', async () => {
    const spec = schemas({
      Pet: {
        type: 'object',
        properties: {
          tag: { type: 'string', pattern: '^[a-z]+$', 'x-pattern-description': 'lowercase letters' },
          code: { type: 'string', pattern: '^[0-9]{4}$', 'x-pattern-description': 'four digits' },
        },
      },
    });
    const module = await emitted(spec);
    expect(Object.entries(module.patternDescriptions)).toEqual([
      ['^[0-9]{4}$', 'four digits'],
      ['^[a-z]+$', 'lowercase letters'],
    ]);
  });

  it.each([
    { given: 'no x-pattern-description', extra: {} },
    { given: 'an empty x-pattern-description', extra: { 'x-pattern-description': '' } },
  ])('rejects a pattern with $given, naming the pattern', ({ extra }) => {
    const spec = schemas({ Code: { type: 'string', pattern: '^[A-Z]{3}$', ...extra } });
    expect(() => emitValidators(spec, 'fragment', fragmentSource)).toThrow('pattern ^[A-Z]{3}$ has no x-pattern-description');
  });

  const digits = (meaning: string): JsonObject => ({ type: 'string', pattern: '^[0-9]{1,19}$', 'x-pattern-description': meaning });
  const notZero = (meaning: string): JsonObject => ({ type: 'string', not: { pattern: '^0+\\.00$', 'x-pattern-description': meaning } });
  it.each([
    {
      given: 'two components',
      spec: schemas({ Batch: digits('1 to 19 digits (the id of a batch)'), Location: digits('1 to 19 digits (the id of a location)') }),
      want: 'pattern ^[0-9]{1,19}$ has two x-pattern-descriptions, "1 to 19 digits (the id of a batch)" at #/components/schemas/Batch and "1 to 19 digits (the id of a location)" at #/components/schemas/Location',
    },
    {
      given: 'a member of a component and a path parameter',
      spec: documentOf({
        paths: {
          '/batches/{id}': {
            get: {
              operationId: 'batches.get',
              parameters: [{ name: 'id', in: 'path', required: true, schema: digits('1 to 19 digits (the id of a batch)') }],
              responses: { '200': { description: 'ok' } },
            },
          },
        },
        components: { schemas: { Location: { type: 'object', properties: { id: digits('1 to 19 digits') } } } },
      }),
      want: 'pattern ^[0-9]{1,19}$ has two x-pattern-descriptions, "1 to 19 digits" at #/components/schemas/Location/properties/id and "1 to 19 digits (the id of a batch)" at batches.get path parameters/properties/id',
    },
    {
      given: 'a pattern excluded under not',
      spec: schemas({ Amount: notZero('a zero amount'), Refund: notZero('zero, with any number of zeros') }),
      want: 'pattern ^0+\\.00$ (under not) has two x-pattern-descriptions, "a zero amount" at #/components/schemas/Amount/not and "zero, with any number of zeros" at #/components/schemas/Refund/not',
    },
  ])('refuses one pattern with two descriptions in a document ($given), in one line naming both and where', ({ spec, want }) => {
    let message = '';
    try {
      emitValidators(spec, 'fragment', fragmentSource);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(want);
    expect(message).toContain('give both the same words saying what the pattern accepts');
    expect(message).not.toContain('\n');
  });

  it('takes one pattern described alike at several places, and exports its one meaning', async () => {
    const spec = schemas({ Batch: digits('1 to 19 digits'), Location: digits('1 to 19 digits'), Amount: notZero('a zero amount') });
    expect((await emitted(spec)).patternDescriptions).toEqual({
      '^0+\\.00$': 'a zero amount',
      '^[0-9]{1,19}$': '1 to 19 digits',
      'not:^0+\\.00$': 'a zero amount',
    });
  });

  it('leaves annotations and x- extensions out of the code', () => {
    const spec = schemas({
      Pet: {
        type: 'object',
        description: 'DESCRIPTION-TEXT',
        title: 'TITLE-TEXT',
        example: { name: 'EXAMPLE-TEXT' },
        'x-internal-note': 'EXTENSION-TEXT',
        properties: { name: { type: 'string', description: 'MEMBER-DESCRIPTION', deprecated: true } },
      },
    });
    const { code } = emitValidators(spec, 'fragment', fragmentSource);
    for (const text of ['DESCRIPTION-TEXT', 'TITLE-TEXT', 'EXAMPLE-TEXT', 'EXTENSION-TEXT', 'MEMBER-DESCRIPTION', 'deprecated'])
      expect(code).not.toContain(text);
  });
});
