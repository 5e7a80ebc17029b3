/**
 * Links in the code samples and the contract lint: given a spec fragment whose success responses declare
 * OpenAPI Link Objects, the model reads them, the lint (`link-valid`) names what cannot be followed, and a
 * sample of a linked operation runs its producer first, in TypeScript and in curl.
 */
import { describe, expect, it } from 'vitest';
import { type Json, type JsonObject, operationsOf, parseLinkExpression, schemaAtPointer } from '../../../scripts/openapi-model.js';
import { contractProblems, linkValid } from '../../../scripts/steps/contract-lint.js';
import { codeSamplesOf, type SampleTarget } from '../../../scripts/steps/samples.js';
import { requestCheckFor } from '../../../scripts/steps/validators.js';
import { runShellWithFetch, jqPath, shellWords } from '../../docs/sample-shell.js';
import { documentOf } from './fragments.js';

const target: SampleTarget = {
  document: 'shop',
  module: 'contrato/shop',
  factory: 'createShopClient',
  clientBaseUrl: 'http://127.0.0.1:4010/shop',
  baseUrl: 'http://127.0.0.1:4010/shop',
  credential: { clientId: 'sandbox-shop' },
  secret: 'sandbox-secret',
};

const json = (schema: JsonObject, example?: Json): JsonObject => ({
  content: {
    'application/json': { schema, ...(example === undefined ? {} : { examples: { one: { summary: 'one', value: example } } }) },
  },
});
const order: JsonObject = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, shop: { type: 'string' }, ref: { type: 'string' } },
};

/** A shop: orders are created under a shop (POST answers the order), read and paid; a payment names its order in the body. */
function shopSpec(links: JsonObject, payLinks: JsonObject = {}): JsonObject {
  return documentOf({
    paths: {
      '/shops/{shop}/orders': {
        post: {
          operationId: 'orders.create',
          parameters: [{ name: 'shop', in: 'path', required: true, schema: { type: 'string' }, example: 'north' }],
          requestBody: { required: true, ...json({ type: 'object', properties: { ref: { type: 'string' } } }, { ref: 'A-1' }) },
          responses: { '201': { description: 'made', ...json(order), links } },
        },
      },
      '/shops/{shop}/orders/{orderId}': {
        get: {
          operationId: 'orders.get',
          parameters: [
            { name: 'shop', in: 'path', required: true, schema: { type: 'string' }, example: 'south' },
            { name: 'orderId', in: 'path', required: true, schema: { type: 'string' }, example: '7' },
          ],
          responses: { '200': { description: 'the order', ...json(order) } },
        },
      },
      '/payments': {
        post: {
          operationId: 'payments.create',
          requestBody: {
            required: true,
            ...json(
              { type: 'object', required: ['orderId'], properties: { orderId: { type: 'integer' }, note: { type: 'string' } } },
              { orderId: 1, note: 'paid' },
            ),
          },
          responses: {
            '201': { description: 'paid', ...json({ type: 'object', properties: { id: { type: 'string' } } }), links: payLinks },
          },
        },
      },
    },
  });
}

const toGet = {
  'orders.get': { operationId: 'orders.get', parameters: { shop: '$request.path.shop', orderId: '$response.body#/id' } },
};
const toPay = { 'payments.create': { operationId: 'payments.create', 'x-body': { '/orderId': '$response.body#/id' } } };

function samples(spec: JsonObject): Map<string, { label: string; source: string }[]> {
  return codeSamplesOf(spec, target, requestCheckFor(spec, `fragment-links-${Math.random()}`));
}
const source = (spec: JsonObject, operationId: string, label: 'TypeScript' | 'curl'): string =>
  samples(spec)
    .get(operationId)!
    .find((sample) => sample.label === label)!.source;

describe('links: the model', () => {
  it('reads the links of success responses, their parameters and x-body', () => {
    const [create] = operationsOf(shopSpec({ ...toGet, ...toPay }));
    expect(create!.links).toEqual([
      { status: '201', name: 'orders.get', operationId: 'orders.get', parameters: toGet['orders.get'].parameters, body: {} },
      {
        status: '201',
        name: 'payments.create',
        operationId: 'payments.create',
        parameters: {},
        body: { '/orderId': '$response.body#/id' },
      },
    ]);
  });

  it.each([
    { given: '$response.body#/id', want: { source: 'response', part: 'body', pointer: '/id' } },
    { given: '$request.body#/a/b', want: { source: 'request', part: 'body', pointer: '/a/b' } },
    { given: '$request.path.txid', want: { source: 'request', part: 'path', name: 'txid' } },
    { given: '$request.header.x-idempotency-key', want: { source: 'request', part: 'header', name: 'x-idempotency-key' } },
    { given: '$response.header.Location', want: null },
    { given: '$url', want: null },
  ])('parseLinkExpression($given)', ({ given, want }) => {
    expect(parseLinkExpression(given)).toEqual(want);
  });

  it.each([
    { given: '/id', want: { type: 'integer', optional: false } },
    { given: '/ref', want: { type: 'string', optional: true } },
    { given: '/missing', want: null },
  ])('schemaAtPointer(order, $given)', ({ given, want }) => {
    const found = schemaAtPointer(documentOf({}), order, given);
    expect(found && { type: found.schema.type, optional: found.optional }).toEqual(want);
  });
});

describe('links: the contract lint (link-valid)', () => {
  it('finds nothing wrong with links it can follow', () => {
    expect(linkValid.problems(shopSpec({ ...toGet, ...toPay }))).toEqual([]);
  });

  it.each([
    {
      given: 'an operationId of no operation',
      links: { x: { operationId: 'orders.nowhere', parameters: { orderId: '$response.body#/id' } } },
      want: 'link x: operationId orders.nowhere is no operation of this document',
    },
    {
      given: 'a parameter the consumer does not have',
      links: { x: { operationId: 'orders.get', parameters: { order: '$response.body#/id' } } },
      want: 'link x: parameter order names no single parameter of orders.get',
    },
    {
      given: 'an unsupported expression',
      links: { x: { operationId: 'orders.get', parameters: { orderId: '$response.header.Location' } } },
      want: 'link x: parameter orderId: $response.header.Location is no supported expression',
    },
    {
      given: 'a pointer outside the response schema',
      links: { x: { operationId: 'orders.get', parameters: { orderId: '$response.body#/orderId' } } },
      want: 'link x: parameter orderId: $response.body#/orderId: /orderId is no member of the response body schema of orders.create',
    },
    {
      given: 'a request parameter the producer does not have',
      links: { x: { operationId: 'orders.get', parameters: { shop: '$request.path.store' } } },
      want: 'link x: parameter shop: $request.path.store names no path parameter of orders.create',
    },
    {
      given: 'an x-body pointer outside the consumer body',
      links: { x: { operationId: 'payments.create', 'x-body': { '/order': '$response.body#/id' } } },
      want: 'link x: x-body /order is no member of the request body of payments.create',
    },
  ])('names the file, the link and the rule: $given', ({ links, want }) => {
    const problems = contractProblems(shopSpec(links)).filter((problem) => problem.startsWith('link-valid'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('link-valid: paths/shops_{shop}_orders.yaml orders.create 201 ');
    expect(problems[0]).toContain(want);
  });
});

describe('the status a sample documents (x-sample-status)', () => {
  const withStatus = (status: number): JsonObject => {
    const spec = shopSpec({});
    ((spec.paths as JsonObject)['/payments'] as { post: JsonObject }).post['x-sample-status'] = status;
    return spec;
  };

  it('is said in both samples', () => {
    expect(source(withStatus(201), 'payments.create', 'TypeScript')).toContain(
      '// A fresh sandbox answers 201 here.\nconst result = await client.payments.create(',
    );
    expect(source(withStatus(201), 'payments.create', 'curl')).toContain('# A fresh sandbox answers 201 here.\ncurl -sS -i');
  });

  it('must be a success status the operation declares', () => {
    expect(contractProblems(withStatus(201)).filter((problem) => problem.startsWith('sample-status'))).toEqual([]);
    expect(contractProblems(withStatus(200))).toContain(
      'sample-status-declared: paths/payments.yaml payments.create: x-sample-status 200 is no success status it declares: name one of its 2xx responses',
    );
  });
});

describe('links: the samples chain the producer', () => {
  it('TypeScript: calls the producer first, keeps its answer and converts the number the path takes as text', () => {
    expect(source(shopSpec(toGet), 'orders.get', 'TypeScript')).toContain(
      [
        '// orders.get acts on what orders.create makes, so orders.create runs first.',
        "const ordersCreate = await client.orders.create({ path: { shop: 'north' }, body: { ref: 'A-1' } });",
        'const result = await client.orders.get({',
        "  path: { shop: 'north', orderId: String(ordersCreate.id) },",
        '});',
        'console.log(result);',
      ].join('\n'),
    );
  });

  it('curl: keeps the value in a variable read with jq and puts it in the URL', () => {
    expect(source(shopSpec(toGet), 'orders.get', 'curl')).toBe(
      [
        '# orders.get acts on what orders.create makes, so orders.create runs first.',
        "ORDERS_CREATE_ID=$(curl -sS -X POST 'http://127.0.0.1:4010/shop/shops/north/orders' \\",
        "  -H 'content-type: application/json' \\",
        '  -d \'{"ref":"A-1"}\' \\',
        "  | jq -r '.id')",
        'curl -sS -i \'http://127.0.0.1:4010/shop/shops/north/orders/\'"$ORDERS_CREATE_ID"',
        '',
      ].join('\n'),
    );
  });

  it('puts an x-body value into the consumer body, bare when the member is a number', () => {
    expect(source(shopSpec(toPay), 'payments.create', 'TypeScript')).toContain(
      "await client.payments.create({ body: { orderId: ordersCreate.id, note: 'paid' } });",
    );
    expect(source(shopSpec(toPay), 'payments.create', 'curl')).toContain(`-d '{"orderId":'"$ORDERS_CREATE_ID"',"note":"paid"}'`);
  });

  it('chains producers of producers, in order, and never loops', () => {
    const back = { 'orders.create': { operationId: 'orders.create', parameters: { shop: '$response.body#/id' } } };
    const spec = shopSpec(toPay, back);
    const pay = source(spec, 'payments.create', 'TypeScript');
    expect(pay.indexOf('client.orders.create(')).toBeLessThan(pay.indexOf('client.payments.create('));
    const create = source(spec, 'orders.create', 'TypeScript');
    expect(create.match(/await client\.(?!close)/g)).toHaveLength(2);
  });

  it('leaves an operation no producer links to as it was: the spec examples', () => {
    expect(source(shopSpec(toGet), 'payments.create', 'TypeScript')).not.toContain('runs first');
  });
});

describe('links: the fetch stand-in reads what the samples write', () => {
  it.each([
    { given: `'a'"$X"'b' c`, want: ['aXVb', 'c'] },
    { given: `-H "authorization: Bearer $TOKEN"`, want: ['-H', 'authorization: Bearer t0k'] },
    { given: `'it'\\''s'`, want: ["it's"] },
  ])('shellWords($given)', ({ given, want }) => {
    expect(
      shellWords(
        given,
        new Map([
          ['X', 'XV'],
          ['TOKEN', 't0k'],
        ]),
      ),
    ).toEqual(want);
  });

  it.each([
    { given: '.id', want: '7' },
    { given: '.data.items[1]', want: 'b' },
    { given: '.["a-b"]', want: 'null' },
  ])('jqPath($given)', ({ given, want }) => {
    expect(jqPath('{"id":7,"data":{"items":["a","b"]}}', given)).toBe(want);
  });

  it('refuses a command it does not know, naming it', async () => {
    await expect(runShellWithFetch('rm -rf /tmp/nothing', '.')).rejects.toThrow('the fetch stand-in reads curl commands only, not: rm');
  });
});
