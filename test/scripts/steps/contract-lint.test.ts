/**
 * The contract lint (scripts/steps/contract-lint.ts), rule `refusal-declared`: an operation whose request
 * can be refused declares a 400, or a 404 when only path values can be refused. Given a fragment, want the
 * lines it reports; then the rule inside the pipeline, on a copy of specs/ that breaks it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { contractProblems, lintContract } from '../../../scripts/steps/contract-lint.js';
import { documentOf, operationAt } from './fragments.js';

const ok = { description: 'ok' };
const problem = { description: 'refused' };
const accountId = { name: 'x-account-id', in: 'header', schema: { type: 'integer', minimum: 1 } };
const id = (schema: JsonObject = { type: 'string', pattern: '^[0-9]{1,19}$', 'x-pattern-description': '1 to 19 digits' }): JsonObject => ({
  name: 'id',
  in: 'path',
  required: true,
  schema,
});
const body = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
/** One operation `things.<method>` at `path`, answering the statuses given. */
const spec = (path: string, method: string, operation: JsonObject, statuses: readonly string[]): JsonObject =>
  documentOf({
    paths: operationAt(
      path,
      {
        operationId: `things.${method}`,
        ...operation,
        responses: Object.fromEntries(statuses.map((status) => [status, status === '200' ? ok : problem])),
      },
      method,
    ),
  });
const declare400 = (which: string): string =>
  `refusal-declared: ${which} but declares no 400: declare a 400 with the interface's problem response`;

const cases: { given: string; spec: JsonObject; want: string[] }[] = [
  {
    given: 'a constrained header and no 400',
    spec: spec('/things', 'get', { parameters: [accountId] }, ['200', '401']),
    want: [declare400('things.get (GET /things) can refuse header x-account-id (minimum, type)')],
  },
  { given: 'a constrained header and a 400', spec: spec('/things', 'get', { parameters: [accountId] }, ['200', '400']), want: [] },
  {
    given: 'a constrained header and a default answer',
    spec: spec('/things', 'get', { parameters: [accountId] }, ['200', 'default']),
    want: [],
  },
  {
    given: 'a required query parameter without constraint and no 400',
    spec: spec('/things', 'get', { parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }] }, ['200']),
    want: [declare400('things.get (GET /things) can refuse query q (required)')],
  },
  {
    given: 'a request body and no 400',
    spec: spec('/things', 'post', { requestBody: body }, ['200', '500']),
    want: [declare400('things.post (POST /things) can refuse the request body')],
  },
  {
    given: 'a constrained path parameter, no 400 and no 404',
    spec: spec('/things/{id}', 'get', { parameters: [id()] }, ['200', '401']),
    want: [`${declare400('things.get (GET /things/{id}) can refuse path id (pattern)')} (or a 404, as only path values can be refused)`],
  },
  { given: 'a constrained path parameter and a 404', spec: spec('/things/{id}', 'get', { parameters: [id()] }, ['200', '404']), want: [] },
  {
    given: 'a constrained path parameter and a body, with a 404 only',
    spec: spec('/things/{id}', 'put', { parameters: [id()], requestBody: body }, ['200', '404']),
    want: [declare400('things.put (PUT /things/{id}) can refuse path id (pattern), the request body')],
  },
  {
    given: 'a parameter whose constraint is in a referenced component',
    spec: documentOf({
      paths: operationAt('/things', { operationId: 'things.get', parameters: [{ $ref: '#/components/parameters/AccountId' }] }),
      components: {
        parameters: { AccountId: { ...accountId, schema: { $ref: '#/components/schemas/AccountId' } } },
        schemas: { AccountId: { type: 'integer', format: 'int64' } },
      },
    }),
    want: [declare400('things.get (GET /things) can refuse header x-account-id (format, type)')],
  },
  {
    given: 'no input at all (a body sent is not a request of the contract)',
    spec: spec('/things', 'delete', {}, ['204', '404']),
    want: [],
  },
  {
    given: 'only inputs that take any text: an optional header, a path parameter, both bare strings',
    spec: spec(
      '/things/{name}',
      'get',
      {
        parameters: [
          { name: 'name', in: 'path', required: true, schema: { type: 'string', description: 'any' } },
          { name: 'x-note', in: 'header', schema: { type: 'string', default: 'none' } },
        ],
      },
      ['200'],
    ),
    want: [],
  },
];

describe('contract lint, refusal-declared', () => {
  it.each(cases)('$given', ({ spec: document, want }) => {
    expect(contractProblems(document)).toEqual(want);
  });

  it('throws one line per problem, naming the spec', () => {
    const document = spec('/things', 'post', { parameters: [accountId], requestBody: body }, ['200']);
    expect(() => lintContract(document, 'specs/fragment/openapi.yaml')).toThrow(
      `contract lint found 1 problem(s) in specs/fragment/openapi.yaml:\n  error ${declare400('things.post (POST /things) can refuse header x-account-id (minimum, type), the request body')}`,
    );
    expect(() => lintContract(spec('/things', 'post', { requestBody: body }, ['200', '400']), 'specs/fragment/openapi.yaml')).not.toThrow();
  });
});

describe('contract lint in the pipeline', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-contract-lint-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const specs = join(scratch, 'specs');
  // balance.get as it was before it declared its 400.
  const balance = join(specs, 'accounts/paths/accounts_balance.yaml');
  const declared = "    '400':\n      $ref: ../../_shared/responses/BadRequest.yaml\n";
  beforeAll(() => {
    cpSync(join(projectRoot, 'specs'), specs, { recursive: true });
    const text = readFileSync(balance, 'utf8');
    expect(text).toContain(declared);
    writeFileSync(balance, text.replace(declared, ''));
  });
  const want = declare400('balance.get (GET /accounts/balance) can refuse header x-account-id (format, minimum, type)');

  it.each([
    { given: 'npm run lint:specs', args: ['--lint-only'] },
    { given: 'npm run regenerate', args: ['--out', join(scratch, 'generated'), '--no-docs'] },
  ])(
    '$given fails on an operation that can refuse its request and declares no 400',
    ({ args }) => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/regenerate.ts'), '--specs', specs, ...args], {
        cwd: projectRoot,
        encoding: 'utf8',
      });
      expect(run.status, run.stdout).toBe(1);
      expect(run.stderr).toContain(`contract lint found 1 problem(s) in `);
      expect(run.stderr).toContain(`  error ${want}\n`);
    },
    120_000,
  );
});
