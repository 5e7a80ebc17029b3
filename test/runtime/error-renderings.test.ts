/**
 * Every error class the package exports, built the way contrato builds it (a real loopback server, the
 * clients' runtime, the token flows, the generated validators, the transport), fed with secrets, tokens,
 * passphrases, a PEM private key and documents at shallow and deep nesting. No rendering of any of them
 * (message, stack, String, JSON.stringify, util.inspect at full depth) may show one.
 *
 * What contrato cannot know is not asked of it: a passphrase is only ever given as a TLS option, so it is
 * looked for in the errors of TLS options, and under a member named like a credential elsewhere.
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import { createMessagesClient } from '../../src/messages/index.js';
import { createPixClient } from '../../src/pix/index.js';
import { coreBankingTokenRequest } from '../../src/core-banking/token.js';
import { requestToken } from '../../src/runtime/token-request.js';
import {
  AuthError,
  ConfigurationError,
  ConnectionError,
  ContratoError,
  HttpError,
  ProblemError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
} from '../../src/runtime/errors.js';
import { checkBaseUrl, Transport } from '../../src/runtime/transport.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer } from '../helpers/https-server.js';
import { startLoopbackServer, type RecordedRequest } from '../helpers/loopback.js';
import { type InstalledTelemetry, installTelemetry } from '../telemetry/sdk.js';

const clientId = 'baas_partner';
const clientSecret = 'cs_live_Rk7Qm2Xw9Lp4Zt6V';
const accessToken = 'eyJhbGciOiJIUzI1NiJ9.tok-Hq3Jv8Nc5Bd1Yf0S.c2ln';
const passphrase = 'pfx-pass-Wd4Gs8Kj1Mn5';

/** Documents in each written form the brief names: digits, punctuated CPF and CNPJ, the alphanumeric CNPJ. */
const documents = {
  cpf: '39053344705',
  cpfZeros: '000.000.000-00',
  cnpjZeros: '00.000.000/0000-00',
  cnpjAlphanumeric: '12ABC34501DE35',
  cnpjAlphanumericPunctuated: '12.ABC.345/01DE-35',
};

let pki: TestPki;
/** A PEM private key, and runs of its body that would betray it (a line of base64 is never escaped). */
let privateKeyPem: string;
let privateKeyRuns: string[];

// Every call below also runs with an OpenTelemetry SDK registered: its spans are scanned like the errors.
let telemetry: InstalledTelemetry;

beforeAll(() => {
  telemetry = installTelemetry();
  pki = createTestPki();
  privateKeyPem = pki.otherClient.key;
  const lines = privateKeyPem.split('\n').filter((line) => line.length === 64);
  privateKeyRuns = lines.slice(1, 4).flatMap((line) => [line.slice(0, 20), line.slice(40)]);
});

afterAll(async () => {
  pki.dispose();
  await telemetry.uninstall();
});

/** What must never show, with the reason each would be a leak. */
function betrayals(): { what: string; text: string }[] {
  return [
    { what: 'client secret', text: clientSecret },
    { what: 'access token', text: 'tok-Hq3Jv8Nc5Bd1Yf0S' },
    { what: 'Basic credentials', text: Buffer.from(`${clientId}:${clientSecret}`).toString('base64') },
    { what: 'PFX passphrase', text: passphrase },
    { what: 'test PKI passphrase', text: pki.pfxPassphrase },
    ...privateKeyRuns.map((text) => ({ what: 'private key', text })),
    { what: 'CPF digits', text: documents.cpf },
    // A quote cut short, and the part a masked CPF hides.
    { what: 'CPF first digits', text: '390533' },
    { what: 'CPF of zeros', text: documents.cpfZeros },
    { what: 'CPF of zeros (digits)', text: '00000000000' },
    { what: 'CNPJ of zeros', text: documents.cnpjZeros },
    { what: 'CNPJ of zeros (branch)', text: '/0000-00' },
    { what: 'alphanumeric CNPJ', text: documents.cnpjAlphanumeric },
    { what: 'alphanumeric CNPJ (branch)', text: '01DE' },
  ];
}

function renderings(error: unknown): Record<string, string> {
  const value = error as Error;
  return {
    message: String(value.message),
    stack: String(value.stack),
    String: String(error),
    'JSON.stringify': JSON.stringify(error) ?? '',
    'util.inspect': inspect(error, { depth: Infinity }),
  };
}

function leaksOf(error: unknown): string[] {
  const found: string[] = [];
  for (const [rendering, text] of Object.entries(renderings(error))) {
    for (const betrayal of betrayals()) if (text.includes(betrayal.text)) found.push(`${betrayal.what} in ${rendering}`);
  }
  return [...new Set(found)];
}

/** A value `levels` objects deep whose innermost object is `leaf`. */
function nested(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let level = 0; level < levels; level += 1) value = { level, child: value };
  return value;
}

/**
 * Everything at once, under member names that are no credential's (so only redaction of values can hide
 * them). `knownSecrets`: the client secret and the token, which the client knows (once it has the token);
 * data that cannot hold them (a payload the client's credentials never reached) leaves them out.
 */
function everything(knownSecrets = true): Record<string, unknown> {
  return {
    ...documents,
    note: `${knownSecrets ? `secret ${clientSecret} token ${accessToken} ` : ''}key ${privateKeyPem}`,
    list: [documents.cpf, { doc: documents.cnpjZeros }],
    // Named like a credential: its value goes whatever it is.
    passphrase,
  };
}

const shallowAndDeep = (knownSecrets = true): Record<string, unknown> => ({
  shallow: everything(knownSecrets),
  deep: nested(12, everything(knownSecrets)),
});

async function withServer<T>(
  handler: (request: RecordedRequest, response: ServerResponse) => void,
  run: (url: string) => Promise<T>,
): Promise<T> {
  const server = await startLoopbackServer(handler);
  try {
    return await run(server.url);
  } finally {
    await server.close();
  }
}

const json = (response: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void => {
  response.writeHead(status, { 'content-type': contentType }).end(JSON.stringify(body));
};

/** The token endpoints of core-banking and pix answer with the token; everything else goes to `answer`. */
function platform(answer: (request: RecordedRequest, response: ServerResponse) => void) {
  return (request: RecordedRequest, response: ServerResponse): void => {
    if (request.path === '/auth/token' || request.path === '/oauth/token') {
      json(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
      return;
    }
    answer(request, response);
  };
}

const clientOptions = (baseUrl: string, responseValidation: 'off' | 'strict' = 'off') =>
  ({ baseUrl, clientId, clientSecret, retry: { maxRetries: 0 }, rateLimit: false, responseValidation, timeoutMs: 5_000 }) as const;

/** The rejection of `run`, which must reject. */
async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => expect.unreachable('the call must fail'),
    (error: unknown) => error,
  );
}

/** A call of the core banking client against a loopback server answering with `answer`. */
function coreBankingCall(
  answer: (request: RecordedRequest, response: ServerResponse) => void,
  call: (client: ReturnType<typeof createCoreBankingClient>) => Promise<unknown>,
  responseValidation: 'off' | 'strict' = 'off',
) {
  return () =>
    withServer(platform(answer), async (url) => {
      const client = createCoreBankingClient(clientOptions(url, responseValidation));
      try {
        return await failureOf(() => call(client));
      } finally {
        await client.close();
      }
    });
}

/** A request echoed back in full (headers and body), as some gateways do in their error answers. */
const echoOf = (request: RecordedRequest) => ({ method: request.method, path: request.path, headers: request.headers, body: request.body });
const textEchoOf = (request: RecordedRequest) =>
  `${request.method} ${request.path}\n${Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n')}\n\n${request.body}`;

const invoiceBody = {
  customerId: 1,
  pixKey: documents.cpf,
  dueDate: '2026-12-10',
  amount: 10,
  type: 'IMMEDIATE',
  description: `CPF ${documents.cpfZeros} CNPJ ${documents.cnpjAlphanumericPunctuated}`,
} as const;

interface Case {
  readonly given: string;
  readonly want: abstract new (...args: never[]) => ContratoError;
  readonly run: () => Promise<unknown>;
}

const cases: Case[] = [
  {
    given: 'a request breaking the schema with documents and secrets, shallow and deep (runtime, generated validators)',
    want: RequestValidationError,
    run: coreBankingCall(
      (_request, response) => json(response, 200, { id: '7', number: '1', type: 'CHECKING', status: 'ACTIVE' }),
      // A first call, so that the client holds the token it must scrub.
      async (client) => {
        await client.accounts.get({ path: { id: 7 } });
        return client.feeRules.create({
          body: {
            name: 'ok',
            percent: `CPF ${documents.cpfZeros}`,
            minAmount: documents.cnpjZeros,
            maxAmount: documents.cnpjAlphanumeric,
            fixedAmount: `${'y'.repeat(40)} ${documents.cpf} cut here`,
            effectiveDate: `${clientSecret} ${privateKeyPem}`,
            requirements: shallowAndDeep(),
            extra: shallowAndDeep(),
          } as never,
        });
      },
    ),
  },
  {
    given: 'a response breaking the contract with documents and secrets, shallow and deep (strict)',
    want: ResponseValidationError,
    run: coreBankingCall(
      (_request, response) =>
        json(response, 200, {
          id: 7,
          number: Number(documents.cpf),
          type: shallowAndDeep(),
          person: `CPF ${documents.cpfZeros} and ${documents.cnpjAlphanumericPunctuated}`,
          createdAt: `Bearer ${accessToken}`,
          status: ['token', accessToken],
          closedAt: nested(12, everything()),
        }),
      (client) => client.accounts.get({ path: { id: 7 } }),
      'strict',
    ),
  },
  {
    // V8's SyntaxError message quotes the start of the body ("CPF 390533"... is not valid JSON), cut where
    // no mask can see a document: the issue does not repeat it.
    given: 'a 200 answer that is not JSON, quoting a document and the token',
    want: ResponseValidationError,
    run: coreBankingCall(
      (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`CPF ${documents.cpf} ${documents.cnpjZeros} token ${accessToken} {`),
      (client) => client.accounts.get({ path: { id: 7 } }),
      'strict',
    ),
  },
  {
    given: 'a pix payload location whose payload breaks the contract with the debtor documents (check() without the runtime)',
    want: ResponseValidationError,
    run: () =>
      withServer(
        (_request, response) => {
          const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
          // The location is read without credentials: its payload cannot echo them.
          const payload = {
            txid: nested(12, everything(false)),
            calendario: { criacao: 'x', apresentacao: 'x', expiracao: 'x' },
            revisao: documents.cpf,
            status: 'ATIVA',
            valor: { original: '1.00' },
            chave: `${documents.cpf} ${'z'.repeat(80)}`,
            devedor: { cpf: documents.cpfZeros, cnpj: documents.cnpjAlphanumericPunctuated, nome: shallowAndDeep(false) },
            solicitacaoPagador: `${'w'.repeat(130)} ${documents.cpf}`,
          };
          response.writeHead(200, { 'content-type': 'application/jose' }).end(`${segment({ alg: 'PS256' })}.${segment(payload)}.c2ln`);
        },
        async (url) => {
          const client = createPixClient(clientOptions(url, 'strict'));
          try {
            return await failureOf(() => client.locations.cob(`${url}/qr/v2/a1b2c3d4e5`));
          } finally {
            await client.close();
          }
        },
      ),
  },
  {
    given: 'a 400 echoing the request (Bearer token in the headers, documents in the body), shallow and deep',
    want: HttpError,
    run: coreBankingCall(
      (request, response) => json(response, 400, { echo: echoOf(request), raw: textEchoOf(request), ...shallowAndDeep() }),
      (client) => client.invoices.create({ path: { accountId: 1 }, body: invoiceBody }),
    ),
  },
  {
    given: 'a 502 in text echoing the request',
    want: HttpError,
    run: coreBankingCall(
      (request, response) =>
        response.writeHead(502, { 'content-type': 'text/plain' }).end(`${textEchoOf(request)}\n${JSON.stringify(shallowAndDeep())}`),
      (client) => client.invoices.create({ path: { accountId: 1 }, body: invoiceBody }),
    ),
  },
  {
    given: 'a 400 of the pix Basic-authenticated token operation echoing its Authorization header, encoded and decoded',
    want: HttpError,
    run: () =>
      withServer(
        (request, response) => {
          const basic = String(request.headers.authorization ?? '').replace(/^Basic /, '');
          response
            .writeHead(400, { 'content-type': 'text/plain' })
            .end(`${textEchoOf(request)}\ncredentials ${Buffer.from(basic, 'base64').toString()}`);
        },
        async (url) => {
          const client = createPixClient(clientOptions(url));
          try {
            return await failureOf(() => client.auth.token({ body: { grant_type: 'client_credentials' } } as never));
          } finally {
            await client.close();
          }
        },
      ),
  },
  {
    given: 'a problem whose title, detail and violations quote documents and secrets, shallow and deep',
    want: ProblemError,
    run: coreBankingCall(
      (request, response) =>
        json(
          response,
          422,
          {
            type: 'https://errors.example.com/invalid',
            title: `Invalid CPF ${documents.cpfZeros}`,
            status: 422,
            detail: `customer ${documents.cpf} / ${documents.cnpjAlphanumericPunctuated}: ${request.body} ${clientSecret} ${accessToken}`,
            violacoes: [{ razao: `CNPJ ${documents.cnpjZeros}`, propriedade: 'cpf', valor: documents.cnpjAlphanumeric }],
            ...shallowAndDeep(),
          },
          'application/problem+json',
        ),
      (client) => client.invoices.create({ path: { accountId: 1 }, body: invoiceBody }),
    ),
  },
  {
    given: 'a 429 problem quoting documents, shallow and deep',
    want: RateLimitError,
    run: coreBankingCall(
      (_request, response) => {
        response.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '120' });
        response.end(
          JSON.stringify({ title: 'Too many', status: 429, detail: `for ${documents.cpf} ${documents.cnpjZeros}`, ...shallowAndDeep() }),
        );
      },
      (client) => client.accounts.get({ path: { id: 7 } }),
    ),
  },
  {
    given: 'a token request refused with a 401 echoing the secret (through the client)',
    want: AuthError,
    run: () =>
      withServer(
        (request, response) =>
          json(response, 401, { title: 'Unauthorized', detail: `invalid secret in ${request.body}`, ...shallowAndDeep() }),
        async (url) => {
          const client = createCoreBankingClient(clientOptions(url));
          try {
            return await failureOf(() => client.accounts.get({ path: { id: 7 } }));
          } finally {
            await client.close();
          }
        },
      ),
  },
  {
    given: 'a PFX with a wrong passphrase',
    want: AuthError,
    run: async () => failureOf(async () => new Transport({ pfx: pki.clientPfx, passphrase })),
  },
  {
    given: 'a certificate and a private key that do not match (the PEM key given)',
    want: AuthError,
    run: async () => failureOf(async () => new Transport({ cert: pki.client.cert, key: privateKeyPem, passphrase })),
  },
  {
    given: 'a PEM private key given as the certificate',
    want: AuthError,
    run: async () => failureOf(async () => new Transport({ cert: privateKeyPem, key: privateKeyPem })),
  },
  {
    given: 'a server whose certificate is not trusted, on the token request (PFX and passphrase in the options)',
    want: AuthError,
    run: async () => {
      const server = await startMutualTlsServer(pki, (_request, response) => response.end('{}'));
      const transport = new Transport({ pfx: pki.clientPfx, passphrase: pki.pfxPassphrase });
      try {
        return await failureOf(() => requestToken(transport.send, coreBankingTokenRequest(server.url, { clientId, clientSecret })));
      } finally {
        await transport.close();
        await server.close();
      }
    },
  },
  {
    given: "a server whose certificate is not trusted, on a call with the bearer token and a body (the transport's own error)",
    want: AuthError,
    run: async () => {
      const server = await startMutualTlsServer(pki, (_request, response) => response.end('{}'));
      const transport = new Transport({ pfx: pki.clientPfx, passphrase: pki.pfxPassphrase });
      try {
        const request = {
          method: 'POST',
          url: `${server.url}/invoices`,
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(shallowAndDeep()),
        };
        return await failureOf(() => transport.send(request));
      } finally {
        await transport.close();
        await server.close();
      }
    },
  },
  {
    given: 'a connection dropped after the server read a call carrying documents (outcome unknown)',
    want: ConnectionError,
    run: coreBankingCall(
      (_request, response) => response.socket?.destroy(),
      (client) => client.invoices.create({ path: { accountId: 1 }, body: invoiceBody }),
    ),
  },
  {
    given: 'a token request to a closed port',
    want: ConnectionError,
    run: async () => {
      const server = await startLoopbackServer(() => undefined);
      await server.close();
      const transport = new Transport();
      try {
        return await failureOf(() => requestToken(transport.send, coreBankingTokenRequest(server.url, { clientId, clientSecret })));
      } finally {
        await transport.close();
      }
    },
  },
  {
    given: 'a call that gets no answer in time',
    want: TimeoutError,
    run: coreBankingCall(
      () => undefined,
      (client) => client.invoices.create({ path: { accountId: 1 }, body: invoiceBody }, { timeoutMs: 100 }),
    ),
  },
  {
    // A base URL that does not parse may carry credentials: it is not quoted.
    given: 'a base URL that does not parse and carries credentials',
    want: ConfigurationError,
    run: async () => failureOf(async () => checkBaseUrl(`https://${clientId}:${clientSecret}@api example.com`)),
  },
  {
    given: 'a base URL with credentials',
    want: ConfigurationError,
    run: async () =>
      failureOf(async () => createCoreBankingClient({ ...clientOptions(`https://${clientId}:${clientSecret}@api.example.com`) })),
  },
  {
    given: 'a messages client without its certificate',
    want: ConfigurationError,
    run: async () =>
      failureOf(async () =>
        createMessagesClient({ baseUrl: 'https://cloud.example.com', login: { clientId, clientSecret }, tls: { ca: pki.ca } }),
      ),
  },
];

describe('no rendering of any error shows a secret or a document', () => {
  it.each(cases)('$given: $want.name', async ({ want, run }) => {
    const error = await run();
    expect(error).toBeInstanceOf(want);
    expect(error).toBeInstanceOf(ContratoError);
    expect(leaksOf(error), inspect(error, { depth: Infinity })).toEqual([]);
  });

  it('nor does any attribute or event of the spans those calls made (run after them)', () => {
    const spans = telemetry.spans();
    expect(spans.length).toBeGreaterThan(cases.length);
    const found = spans.flatMap((span) => {
      const said = JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events });
      return betrayals()
        .filter((betrayal) => said.includes(betrayal.text))
        .map((betrayal) => `${betrayal.what} in span ${span.name}`);
    });
    expect([...new Set(found)]).toEqual([]);
  });

  it('covers every error class the package exports', () => {
    // ContratoError and ValidationError are the bases: contrato builds them only as their subclasses above.
    const exported = [
      ContratoError,
      ValidationError,
      RequestValidationError,
      ResponseValidationError,
      HttpError,
      ProblemError,
      RateLimitError,
      AuthError,
      ConnectionError,
      TimeoutError,
      ConfigurationError,
    ];
    const covered = new Set(
      cases.flatMap((c) => exported.filter((errorClass) => c.want === errorClass || c.want.prototype instanceof errorClass)),
    );
    expect(exported.filter((errorClass) => !covered.has(errorClass)).map((errorClass) => errorClass.name)).toEqual([]);
  });
});
