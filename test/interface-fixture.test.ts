/**
 * The toolkit is generic: a fifth interface (test/fixtures/widgets: its specs and its src/widgets folder,
 * nothing else) goes through the real generator steps into a temporary tree laid out as a repository with
 * the interface, and its client, made by the one client factory from its definition, validates (its
 * cross-field rule included), retries with its idempotency key, pages and reports errors against a
 * loopback server — with no change to the engine in src/runtime. `npm run drill:interface` adds the same
 * fixture to a copy of the repository and runs every test that iterates the definitions.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSpec } from '../scripts/steps/bundle.js';
import { emitOperations } from '../scripts/steps/operations.js';
import { emitTypes } from '../scripts/steps/types.js';
import { emitValidators } from '../scripts/steps/validators.js';
import { createClientCore } from '../src/runtime/client.js';
import type { FacadeRuntime } from '../src/runtime/contract.js';
import type { InterfaceDefinition, OperationTable } from '../src/runtime/definition.js';
import { type ClientOptions, commonOptionNames } from '../src/runtime/client-options.js';
import { ConfigurationError, ProblemError, RequestValidationError } from '../src/runtime/errors.js';
import { type LoopbackServer, sendJson, startLoopbackServer } from './helpers/loopback.js';

const root = join(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/widgets');
// A tree beside src/ (git-ignored) laid out as a repository with the interface: the fixture's src/widgets among
// links to the other folders of src/, and generated/widgets, so every relative import reaches what it names.
const scratch = join(root, `.interface-fixture-${process.pid}`);
const generatedDir = join(scratch, 'generated/widgets');

interface WidgetsFacade {
  widgets: {
    create(
      args: object,
      options?: object,
    ): Promise<{ id: number; name: string }> & {
      withResponse(): Promise<{ data: unknown; response: { attempts: number; idempotencyKey: string | undefined } }>;
    };
    get(args: object): Promise<{ id: number }>;
    listItems(args?: object): AsyncIterable<{ id: number }>;
  };
}

let operationTable: OperationTable;
let widgetsDefinition: InterfaceDefinition<ClientOptions>;
let createFacade: (runtime: FacadeRuntime) => WidgetsFacade;
let server: LoopbackServer;
/** How many times each idempotency key was seen: the first attempt of each key answers 503. */
const seenKeys = new Map<string, number>();
const widgets = Array.from({ length: 7 }, (_, index) => ({ id: index + 1, name: `widget ${index + 1}`, color: 'red' }));

beforeAll(async () => {
  const document = await bundleSpec('test/fixtures/widgets/specs/widgets/openapi.yaml');
  mkdirSync(generatedDir, { recursive: true });
  mkdirSync(join(scratch, 'src'));
  for (const folder of readdirSync(join(root, 'src'))) symlinkSync(join(root, 'src', folder), join(scratch, 'src', folder));
  cpSync(join(fixture, 'src/widgets'), join(scratch, 'src/widgets'), { recursive: true });
  writeFileSync(join(generatedDir, 'openapi.json'), JSON.stringify(document));
  writeFileSync(join(generatedDir, 'types.ts'), await emitTypes(document));
  const validators = emitValidators(document, 'widgets');
  writeFileSync(join(generatedDir, 'validators.js'), validators.code);
  writeFileSync(join(generatedDir, 'validators.d.ts'), validators.declarations);
  writeFileSync(join(generatedDir, 'operations.ts'), emitOperations(document, 'widgets'));
  const operations = (await import(join(generatedDir, 'operations.ts'))) as {
    operationTable: OperationTable;
    createWidgetsFacade: (runtime: FacadeRuntime) => WidgetsFacade;
  };
  operationTable = operations.operationTable;
  createFacade = operations.createWidgetsFacade;
  ({ widgetsDefinition } = (await import(join(scratch, 'src/widgets/definition.ts'))) as { widgetsDefinition: typeof widgetsDefinition });

  server = await startLoopbackServer((request, response) => {
    const url = new URL(request.path, 'http://widgets.test');
    if (request.method === 'POST' && url.pathname === '/token')
      return sendJson(response, 200, { access_token: 'widgets-token', expires_in: 600 });
    if (request.headers.authorization !== 'Bearer widgets-token')
      return sendJson(response, 401, { title: 'no token' }, 'application/problem+json');
    if (request.method === 'POST' && url.pathname === '/widgets') {
      const key = String(request.headers['idempotency-key']);
      const seen = (seenKeys.get(key) ?? 0) + 1;
      seenKeys.set(key, seen);
      if (seen === 1) return sendJson(response, 503, { title: 'busy', status: 503 }, 'application/problem+json');
      return sendJson(response, 201, { id: 8, ...(JSON.parse(request.body) as object) });
    }
    if (request.method === 'GET' && url.pathname === '/widgets') {
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('perPage') ?? 2);
      return sendJson(response, 200, { meta: { total: widgets.length }, data: widgets.slice((page - 1) * perPage, page * perPage) });
    }
    const found = widgets.find((widget) => url.pathname === `/widgets/${widget.id}`);
    if (found) return sendJson(response, 200, found);
    return sendJson(
      response,
      404,
      { type: 'https://widgets.test/errors/not-found', title: 'No such widget', status: 404 },
      'application/problem+json',
    );
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function widgetsClient(): WidgetsFacade {
  const core = createClientCore(widgetsDefinition, operationTable, {
    baseUrl: server.url,
    clientId: 'widgets-client',
    clientSecret: 'widgets-secret-value',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  return createFacade(core.runtime());
}

describe('a fifth interface through its definition alone', () => {
  it('the generators emit its operation table from the spec', () => {
    expect(operationTable['widgets.create']).toMatchObject({
      method: 'post',
      path: '/widgets',
      idempotencyKeyRule: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9]{1,64}$' },
      secured: true,
    });
    expect(operationTable['widgets.list']?.pagination).toMatchObject({
      style: 'page-total',
      position: 'page',
      size: 'perPage',
      defaultSize: 2,
      member: 'total',
    });
    expect(operationTable['auth.token']?.secured).toBe(false);
  });

  it('refuses a bad body before sending, naming each field and rule', async () => {
    const before = server.requests.length;
    const error = await widgetsClient()
      .widgets.create({ body: { name: '', color: 'purple' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => [issue.pointer, issue.rule]).sort()).toEqual([
      ['/body/color', 'enum'],
      ['/body/name', 'minLength'],
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a body its cross-field rule refuses (checks.ts of its folder), before sending', async () => {
    const before = server.requests.length;
    const error = await widgetsClient()
      .widgets.create({ body: { name: 'gear', color: 'blue', minStock: 11, maxStock: 10 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => [issue.pointer, issue.rule])).toEqual([
      ['/body/minStock', 'stock-range'],
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('retries a 503 with the same idempotency key, after fetching a token', async () => {
    const { data, response } = await widgetsClient()
      .widgets.create({ body: { name: 'gear', color: 'blue' } })
      .withResponse();
    expect(data).toEqual({ id: 8, name: 'gear', color: 'blue' });
    expect(response.attempts).toBe(2);
    expect(response.idempotencyKey).toMatch(/^[A-Za-z0-9]{1,64}$/);
    expect(seenKeys.get(response.idempotencyKey!)).toBe(2);
  });

  it('walks every page with the paging its spec declares', async () => {
    const seen: number[] = [];
    for await (const widget of widgetsClient().widgets.listItems()) seen.push(widget.id);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const pageRequests = server.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/widgets?'));
    expect(pageRequests.map((request) => new URL(request.path, 'http://widgets.test').searchParams.get('page')).slice(-4)).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });

  it('turns a problem answer into a ProblemError, and refuses an unknown client option', async () => {
    const error = await widgetsClient()
      .widgets.get({ path: { id: 99 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 404, operationId: 'widgets.get', attempts: 1 });
    expect(() =>
      createClientCore(widgetsDefinition, operationTable, {
        baseUrl: server.url,
        clientId: 'x',
        clientSecret: 'y',
        timeoutMS: 5,
      } as never),
    ).toThrow(
      new ConfigurationError(
        `widgets client: unknown option timeoutMS (did you mean timeoutMs?); known options: ${commonOptionNames.join(', ')}`,
      ),
    );
  });
});
