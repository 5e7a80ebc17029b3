/**
 * The code samples step (scripts/steps/samples.ts): the TypeScript and curl `x-codeSamples` of every
 * operation, made from the operation table and checked with the generated validators. Table-driven cases
 * over spec fragments (given a fragment, the sample must read so), what it refuses, and its tables held to
 * the sandbox they point at. test/docs/samples.test.ts runs the samples of the real specs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Json, type JsonObject, operationsOf } from '../../../scripts/openapi-model.js';
import {
  codeSamplesOf,
  type SampleTarget,
  sandboxOrigin,
  sampleTargetOf,
  tsLiteral,
  valueOfSchema,
  withSamplesOf,
} from '../../../scripts/steps/samples.js';
import { requestCheckFor } from '../../../scripts/steps/validators.js';
import { bundledSpecPath } from '../../../src/checks/registry.js';
import { findDefinition, interfaces } from '../../../src/interfaces.js';
import { clientFactoryOf } from '../../../src/runtime/definition.js';
import { sandboxModules, sandboxPort } from '../../../src/sandbox/modules.js';
import { defaultSandboxCredentials } from '../../../src/sandbox/tokens.js';
import { clientModuleOf } from '../../helpers/definition-clients.js';
import { documentOf } from './fragments.js';

const target: SampleTarget = {
  document: 'pets',
  module: 'contrato/pets',
  factory: 'createPetsClient',
  clientBaseUrl: 'http://127.0.0.1:4010/pets',
  baseUrl: 'http://127.0.0.1:4010/pets',
  credential: { clientId: 'sandbox-pets' },
  secret: 'sandbox-secret',
};

const securitySchemes = {
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: { 'pets.write': 'write' } } } },
  basic: { type: 'http', scheme: 'basic' },
  svc: { type: 'apiKey', in: 'header', name: 'svc-token' },
};
const json = (schema: JsonObject, example?: Json): JsonObject => ({
  content: { 'application/json': { schema, ...(example === undefined ? {} : { examples: { one: { summary: 'one', value: example } } }) } },
});
const tokenAnswer = (member: string): JsonObject => ({
  '200': { description: 'token', ...json({ type: 'object', properties: { [member]: { type: 'string' } } }) },
});
const petSchema: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
};
/** A JSON token request (client_id/client_secret) and a bearer POST with a path parameter and an idempotency key. */
const bearerSpec = (petExample: Json = { name: 'Rex', age: 3 }): JsonObject =>
  documentOf({
    components: { securitySchemes },
    paths: {
      '/auth/token': {
        post: {
          operationId: 'auth.token',
          security: [],
          requestBody: {
            required: true,
            ...json(
              {
                type: 'object',
                additionalProperties: false,
                required: ['client_id', 'client_secret', 'grant_type'],
                properties: {
                  client_id: { type: 'string' },
                  client_secret: { type: 'string' },
                  grant_type: { type: 'string' },
                  scope: { type: 'string' },
                },
              },
              { client_id: 'an-example-id', client_secret: 'an-example-secret', grant_type: 'client_credentials', scope: 'pets.read' },
            ),
          },
          responses: tokenAnswer('access_token'),
        },
      },
      '/shops/{shopId}/pets': {
        post: {
          operationId: 'pets.create',
          security: [{ oauth: ['pets.write'] }],
          'x-idempotency-key': 'Idempotency-Key',
          parameters: [
            { name: 'shopId', in: 'path', required: true, schema: { type: 'integer' }, example: 12 },
            { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 50 }, example: 'pet-0001' },
            { name: 'x-account-id', in: 'header', required: false, schema: { type: 'integer' } },
            { name: 'dryRun', in: 'query', required: false, schema: { type: 'boolean' } },
          ],
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/Pet' }, petExample) },
          responses: { '201': { description: 'made', ...json({ type: 'object' }) } },
        },
      },
      '/pets/{petId}': {
        delete: {
          operationId: 'pets.remove',
          security: [{ oauth: ['pets.write'] }],
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' }, example: "o'brien" }],
          responses: { '204': { description: 'gone' } },
        },
      },
    },
  });

function samplesOf(spec: JsonObject, at: SampleTarget = target): Map<string, { label: string; source: string }[]> {
  const components = (spec.components ?? {}) as JsonObject;
  const withPet = { ...spec, components: { ...components, schemas: { Pet: petSchema, ...((components.schemas as JsonObject) ?? {}) } } };
  return codeSamplesOf(withPet, at, requestCheckFor(withPet, `fragment-${Math.random()}`));
}
const source = (samples: Map<string, { label: string; source: string }[]>, operationId: string, label: 'TypeScript' | 'curl'): string =>
  samples.get(operationId)!.find((sample) => sample.label === label)!.source;

describe('code samples: TypeScript', () => {
  it('builds the client for the sandbox and calls the facade method with the required arguments', () => {
    expect(source(samplesOf(bearerSpec()), 'pets.create', 'TypeScript')).toBe(
      [
        "import { createPetsClient } from 'contrato/pets';",
        '',
        'const client = createPetsClient({',
        "  baseUrl: 'http://127.0.0.1:4010/pets',",
        "  clientId: 'sandbox-pets',",
        "  clientSecret: 'sandbox-secret',",
        '});',
        '',
        "const result = await client.pets.create({ path: { shopId: 12 }, body: { name: 'Rex', age: 3 } });",
        'console.log(result);',
        'await client.close();',
        '',
      ].join('\n'),
    );
  });

  it('awaits a call without a success body, and quotes what needs quoting', () => {
    const sample = source(samplesOf(bearerSpec()), 'pets.remove', 'TypeScript');
    expect(sample).toContain("await client.pets.remove({ path: { petId: 'o\\'brien' } });\nawait client.close();");
    expect(sample).not.toContain('console.log');
  });

  it('puts the sandbox credential in the token request it shows', () => {
    const sample = source(samplesOf(bearerSpec()), 'auth.token', 'TypeScript');
    expect(sample).toContain(
      "    client_id: 'sandbox-pets',\n    client_secret: 'sandbox-secret',\n    grant_type: 'client_credentials',\n",
    );
    expect(sample).not.toContain('an-example');
  });

  it('gives the client its other options: a login, a certificate, a child account', () => {
    const sample = source(
      samplesOf(bearerSpec(), {
        ...target,
        credential: { clientId: 'sandbox-pets', login: true, pfx: 'participant.pfx', options: { accountId: 2001 } },
      }),
      'pets.remove',
      'TypeScript',
    );
    expect(sample).toMatch(/^import \{ readFileSync \} from 'node:fs';\nimport \{ createPetsClient \} from 'contrato\/pets';\n/);
    expect(sample).toContain("  login: { clientId: 'sandbox-pets', clientSecret: 'sandbox-secret' },\n  accountId: 2001,\n");
    expect(sample).toContain("  tls: { pfx: readFileSync('participant.pfx') }, // npx contrato dev-certs writes it\n");
  });

  it('reads a payload location through its reader, by its URL', () => {
    const spec = documentOf({
      paths: {
        '/{token}': {
          get: {
            operationId: 'payload.get',
            parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' }, example: 'abc123' }],
            responses: { '200': { description: 'jws', content: { 'application/jose': { schema: { type: 'string' } } } } },
          },
        },
      },
    });
    const sample = source(
      samplesOf(spec, { ...target, baseUrl: 'http://127.0.0.1:4010/where', readers: { 'payload.get': 'cob' } }),
      'payload.get',
      'TypeScript',
    );
    expect(sample).toContain(
      "const { payload } = await client.locations.cob('http://127.0.0.1:4010/where/abc123');\nconsole.log(payload);",
    );
  });
});

describe('code samples: curl', () => {
  it('fetches a token with the sandbox credential (only what the token request requires), then calls with it', () => {
    expect(source(samplesOf(bearerSpec()), 'pets.create', 'curl')).toBe(
      [
        "TOKEN=$(curl -sS -X POST 'http://127.0.0.1:4010/pets/auth/token' \\",
        "  -H 'content-type: application/json' \\",
        '  -d \'{"client_id":"sandbox-pets","client_secret":"sandbox-secret","grant_type":"client_credentials"}\' \\',
        "  | jq -r '.access_token')",
        "curl -sS -i -X POST 'http://127.0.0.1:4010/pets/shops/12/pets' \\",
        '  -H "authorization: Bearer $TOKEN" \\',
        "  -H 'Idempotency-Key: pet-0001' \\",
        "  -H 'content-type: application/json' \\",
        '  -d \'{"name":"Rex","age":3}\'',
        '',
      ].join('\n'),
    );
  });

  it('escapes single quotes for the shell and encodes path parameters', () => {
    expect(source(samplesOf(bearerSpec()), 'pets.remove', 'curl')).toContain(
      "curl -sS -i -X DELETE 'http://127.0.0.1:4010/pets/pets/o'\\''brien'",
    );
  });

  it('sends the child account a BaaS credential names', () => {
    const samples = samplesOf(bearerSpec(), { ...target, credential: { clientId: 'sandbox-pets', options: { accountId: 2001 } } });
    expect(source(samples, 'pets.create', 'curl')).toContain("  -H 'x-account-id: 2001' \\\n");
    expect(source(samples, 'pets.create', 'TypeScript')).not.toContain('x-account-id');
  });

  it('authenticates an OAuth token request with HTTP Basic and a form, and presents an API-key token in its header', () => {
    const spec = documentOf({
      components: { securitySchemes },
      paths: {
        '/oauth/token': {
          post: {
            operationId: 'auth.token',
            security: [{ basic: [] }],
            requestBody: {
              required: true,
              content: {
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    required: ['grant_type'],
                    properties: { grant_type: { type: 'string' }, scope: { type: 'string' } },
                  },
                  examples: { one: { summary: 'one', value: { grant_type: 'client_credentials', scope: 'a b' } } },
                },
              },
            },
            responses: tokenAnswer('token'),
          },
        },
        '/things': { get: { operationId: 'things.list', security: [{ svc: [] }], responses: { '200': { description: 'ok' } } } },
      },
    });
    const samples = samplesOf(spec);
    expect(source(samples, 'auth.token', 'curl')).toBe(
      [
        "curl -sS -i -X POST 'http://127.0.0.1:4010/pets/oauth/token' \\",
        "  -u 'sandbox-pets:sandbox-secret' \\",
        "  --data-urlencode 'grant_type=client_credentials' \\",
        "  --data-urlencode 'scope=a b'",
        '',
      ].join('\n'),
    );
    expect(source(samples, 'things.list', 'curl')).toBe(
      [
        "TOKEN=$(curl -sS -X POST 'http://127.0.0.1:4010/pets/oauth/token' \\",
        "  -u 'sandbox-pets:sandbox-secret' \\",
        "  --data-urlencode 'grant_type=client_credentials' \\",
        "  | jq -r '.token')",
        "curl -sS -i 'http://127.0.0.1:4010/pets/things' \\",
        '  -H "svc-token: $TOKEN"',
        '',
      ].join('\n'),
    );
  });

  it('uploads the binary part of a multipart body as a file', () => {
    const spec = documentOf({
      paths: {
        '/images': {
          post: {
            operationId: 'images.upload',
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: ['side', 'file'],
                    properties: { side: { type: 'string' }, file: { type: 'string', format: 'binary' } },
                  },
                  encoding: { file: { contentType: 'image/png, image/jpeg' } },
                  examples: { one: { summary: 'one', value: { side: 'FRONT', file: '<binary PNG>' } } },
                },
              },
            },
            responses: { '201': { description: 'stored' } },
          },
        },
      },
    });
    const samples = samplesOf(spec);
    expect(source(samples, 'images.upload', 'curl')).toContain("  -F 'side=FRONT' \\\n  -F 'file=@file.png;type=image/png'\n");
    expect(source(samples, 'images.upload', 'TypeScript')).toContain("body: { side: 'FRONT', file: readFileSync('file.png') }");
    expect(source(samples, 'images.upload', 'TypeScript')).toMatch(/^import \{ readFileSync \} from 'node:fs';/);
  });
});

describe('code samples: what they refuse', () => {
  it('fails when the spec example is refused by the generated validators, naming the operation and the part', () => {
    expect(() => samplesOf(bearerSpec({ name: '' }))).toThrow(
      /pets\.create: the sample's body is refused by the generated validators:\n {2}\/name must NOT have fewer than 1 characters/,
    );
    expect(() => samplesOf(bearerSpec({ name: 'Rex', colour: 'brown' }))).toThrow("pets.create: the sample's body is refused");
  });

  it('fails when a required parameter has no example and none can be made from its schema', () => {
    const spec = documentOf({
      paths: {
        '/pets/{code}': {
          get: {
            operationId: 'pets.get',
            parameters: [
              {
                name: 'code',
                in: 'path',
                required: true,
                schema: { type: 'string', pattern: '^[A-Z]{3}$', 'x-pattern-description': 'three capitals' },
              },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    expect(() => samplesOf(spec)).toThrow('code samples: pets.get: parameter code has no example');
  });

  it('fails when a secured operation has no token operation to fetch its token', () => {
    const spec = documentOf({
      components: { securitySchemes },
      paths: { '/pets': { get: { operationId: 'pets.list', security: [{ oauth: [] }], responses: { '200': { description: 'ok' } } } } },
    });
    expect(() => samplesOf(spec)).toThrow('code samples: pets.list needs a token and pets has no token operation');
  });

  it('refuses samples written in the spec: they are generated', () => {
    const spec = bearerSpec();
    const withPet: JsonObject = { ...spec, components: { ...(spec.components as JsonObject), schemas: { Pet: petSchema } } };
    const operation = (withPet.paths as any)['/pets/{petId}'].delete;
    operation['x-codeSamples'] = [{ lang: 'Shell', source: 'curl …' }];
    expect(() => withSamplesOf(withPet, target, requestCheckFor(withPet, 'fragment-written'))).toThrow(
      'pets.remove: x-codeSamples are generated (scripts/steps/samples.ts); remove them from specs/',
    );
  });

  it('leaves the document it is given unchanged and adds the samples to a copy', () => {
    const spec = bearerSpec();
    const withPet = { ...spec, components: { ...(spec.components as JsonObject), schemas: { Pet: petSchema } } };
    const before = JSON.stringify(withPet);
    const sampled = withSamplesOf(withPet, target, requestCheckFor(withPet, 'fragment-copy'));
    expect(JSON.stringify(withPet)).toBe(before);
    expect(operationsOf(sampled).map((model) => (model.operation['x-codeSamples'] as JsonObject[]).map((sample) => sample.label))).toEqual([
      ['TypeScript', 'curl'],
      ['TypeScript', 'curl'],
      ['TypeScript', 'curl'],
    ]);
  });
});

describe('code samples: values and literals', () => {
  it.each([
    { given: 'an example', schema: { type: 'string', example: 'given' }, want: 'given' },
    { given: 'a default', schema: { type: 'integer', default: 7 }, want: 7 },
    { given: 'an enum', schema: { type: 'string', enum: ['PIX', 'TED'] }, want: 'PIX' },
    { given: 'a format', schema: { type: 'string', format: 'date' }, want: '2026-01-15' },
    { given: 'a minimum', schema: { type: 'number', minimum: 0.5 }, want: 0.5 },
    {
      given: 'an object: its required members only',
      schema: { type: 'object', required: ['a'], properties: { a: { type: 'boolean' }, b: { type: 'string' } } },
      want: { a: true },
    },
    { given: 'a non-empty array', schema: { type: 'array', minItems: 1, items: { type: 'integer' } }, want: [1] },
    { given: 'a pattern (nothing is guessed)', schema: { type: 'string', pattern: '^[0-9]{8}$' }, want: undefined },
  ])('valueOfSchema: $given', ({ schema, want }) => {
    expect(valueOfSchema(documentOf({}), schema as JsonObject)).toEqual(want);
  });

  it('writes TypeScript literals: unquoted keys where it can, one line when it fits, else one member a line', () => {
    expect(tsLiteral({ a: 1, 'b-c': 'x', d: [true, null] })).toBe("{ a: 1, 'b-c': 'x', d: [true, null] }");
    expect(tsLiteral({ text: 'a'.repeat(30), more: 'b'.repeat(30) }, 0, 40)).toBe(
      `{\n  text: '${'a'.repeat(30)}',\n  more: '${'b'.repeat(30)}',\n}`,
    );
    expect(tsLiteral({})).toBe('{}');
  });
});

describe('code samples: the targets come from the definitions and agree with the sandbox', () => {
  const credentials = defaultSandboxCredentials();

  it('listens where the sandbox listens', () => {
    expect(sandboxOrigin).toBe(`http://127.0.0.1:${sandboxPort}`);
  });

  it.each(interfaces.map((info) => [info.name, info] as const))(
    '%s: its samples call the module that serves it, as a credential the sandbox knows, with the client of its interface',
    async (name, info) => {
      const target = sampleTargetOf(info);
      const module = sandboxModules.find((each) => each.document === name);
      expect(target.baseUrl).toBe(`${sandboxOrigin}${module!.prefix}`);
      const known = credentials.find((each) => each.clientId === target.credential.clientId);
      expect(known?.clientSecret).toBe(target.secret);
      const definition = findDefinition(info.interfaceName)!;
      expect([target.module, target.factory]).toEqual([`contrato/${definition.name}`, clientFactoryOf(definition)]);
      const client = await clientModuleOf(definition);
      expect(typeof client[target.factory], `${target.factory} of src/${definition.name}/index.ts`).toBe('function');
    },
  );

  it('refuses a document no definition has, naming it', () => {
    expect(() => sampleTargetOf({ name: 'gadgets', interfaceName: 'gadgets' })).toThrow(/gadgets is no document of an interface/);
  });

  it.each(interfaces.map((info) => [info.name] as const))('%s: every operation of the bundle carries both samples', (name) => {
    const bundle = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
    for (const model of operationsOf(bundle)) {
      const samples = model.operation['x-codeSamples'] as JsonObject[];
      expect(
        samples.map((sample) => [sample.lang, sample.label]),
        model.operationId,
      ).toEqual([
        ['TypeScript', 'TypeScript'],
        ['Shell', 'curl'],
      ]);
      const [group, method] = model.operationId.split('.');
      if (!sampleTargetOf(interfaces.find((info) => info.name === name)!).readers)
        expect(samples[0]!.source).toContain(`await client.${group}.${method}(`);
    }
  });
});
