/**
 * What the sandbox tests share: a strict sandbox started on a fresh seed (printed, so a failing run can be
 * replayed), the control plane (`POST /_sandbox/<verb>`) and its delivery log, the clients of each interface
 * as the tests build them (the seeded secret, strict answers, no retries unless a test asks for them), a
 * refusal read as a ProblemError, bounded polling, a webhook receiver on loopback, and the check after each
 * test that no answer drifted from the contract.
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, expect } from 'vitest';
import { type AccountsClient, type AccountsClientOptions, createAccountsClient } from '../../src/accounts/index.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { strictValidator } from '../../src/checks/strict-response.js';
import { type CoreBankingClient, type CoreBankingClientOptions, createCoreBankingClient } from '../../src/core-banking/index.js';
import { createPixClient, type PixClient, type PixClientOptions } from '../../src/pix/index.js';
import { ProblemError } from '../../src/runtime/errors.js';
import { check } from '../../src/runtime/validation.js';
import type { DeliveryRecord, MountableModule } from '../../src/sandbox/contract.js';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';

/** The strict sandboxes whose drifts are checked after each test, with how many of their drifts were already judged. */
const watched = new Map<RunningSandbox, number>();

/** Starts a strict sandbox of `modules` on the seed `<label>-<now>`, printing it (`sandbox seed: …`); its drifts fail the test that made them. */
export async function startSeeded(
  label: string,
  modules: readonly MountableModule[],
  options: Omit<SandboxOptions, 'modules' | 'seed' | 'strict'> = {},
): Promise<RunningSandbox> {
  const seed = `${label}-${Date.now()}`;
  console.log(`sandbox seed: ${seed}`);
  const sandbox = await startSandbox({ ...options, modules, seed, strict: true });
  watched.set(sandbox, 0);
  return sandbox;
}

/** The drifts of `sandbox` not judged yet, now judged: a test that expects a drift takes it here and asserts it. */
export function takeDrifts(sandbox: RunningSandbox): string[] {
  const drifts = sandbox.drifts();
  const fresh = drifts.slice(watched.get(sandbox) ?? 0);
  watched.set(sandbox, drifts.length);
  return fresh;
}

/**
 * Every strict sandbox of startSeeded (and of watchDrifts) is checked after each test and after the file:
 * an answer its contract does not declare fails the test that caused it, and no test file can forget to look.
 * Registered once per test file (vitest evaluates this module again for each file).
 */
afterEach(() => {
  for (const sandbox of watched.keys()) expect(takeDrifts(sandbox), 'drifts from the contract (strict sandbox)').toEqual([]);
});
afterAll(() => {
  for (const sandbox of watched.keys()) expect(takeDrifts(sandbox), 'drifts from the contract (strict sandbox)').toEqual([]);
  watched.clear();
});

/** Watches a strict sandbox started without startSeeded (startSandbox with strict: true) from its start, as startSeeded's are. */
export function watchDrifts(sandbox: RunningSandbox): RunningSandbox {
  if (!watched.has(sandbox)) watched.set(sandbox, 0);
  return sandbox;
}

/** Kept for the files that call it: startSeeded's sandboxes are watched already; one started otherwise is watched from here on. */
export function expectNoNewDrifts(sandbox: () => RunningSandbox | undefined): void {
  afterEach(() => {
    const current = sandbox();
    if (current) watchDrifts(current);
  });
}

/** A control verb: `POST /_sandbox<path>` with `body` as JSON; its JSON answer, or an error naming the path, status and text. */
export async function control(sandbox: RunningSandbox, path: string, body: unknown = {}): Promise<any> {
  const answer = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`control ${path}: ${answer.status} ${text}`);
  return JSON.parse(text);
}

/** Plans a fault (`POST /_sandbox/faults`); the answer as it came, for a test that reads its status or detail. */
export function planFault(sandbox: RunningSandbox, fault: Record<string, unknown>): Promise<Response> {
  return fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
}

/** The webhook deliveries the sandbox logged. */
export async function deliveries(sandbox: RunningSandbox): Promise<DeliveryRecord[]> {
  const answer = (await (await fetch(`${sandbox.url}/_sandbox/deliveries`)).json()) as { deliveries: DeliveryRecord[] };
  return answer.deliveries;
}

/** The ProblemError `call` was refused with; a call that succeeds, or fails otherwise, fails the test. */
export async function problemOf(call: Promise<unknown>): Promise<ProblemError> {
  const error = await call.then(
    () => expect.fail('the call was not refused'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

/** Polls `condition` every `everyMs` until it holds, at most `limitMs` worth of polls; throws when it never does. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { limitMs = 5000, everyMs = 20 }: { limitMs?: number; everyMs?: number } = {},
): Promise<void> {
  for (let attempt = 0; attempt < Math.ceil(limitMs / everyMs); attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`condition not met within ${limitMs / 1000} s`);
}

/** A webhook receiver on 127.0.0.1 and a free port, handing every request to `handler`. */
export interface Receiver {
  /** `http://127.0.0.1:<port>`, without a path. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startReceiver(handler: RequestListener): Promise<Receiver> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What every sandbox test's client is given, unless the test says otherwise. */
const sandboxClientOptions = { clientSecret: 'sandbox-secret', responseValidation: 'strict', retry: { maxRetries: 0 } } as const;

/** A client of interface A at the sandbox, as `clientId` (a BaaS caller names its child account in `accountId`). */
export function accountsClientOf(sandbox: RunningSandbox, clientId: string, options: Partial<AccountsClientOptions> = {}): AccountsClient {
  return createAccountsClient({ ...sandboxClientOptions, baseUrl: sandbox.urlOf('accounts'), clientId, ...options });
}

/** A client of interface B at the sandbox, as the seeded `sandbox-pix`. */
export function pixClientOf(sandbox: RunningSandbox, options: Partial<PixClientOptions> = {}): PixClient {
  return createPixClient({ ...sandboxClientOptions, baseUrl: sandbox.urlOf('pix'), clientId: 'sandbox-pix', ...options });
}

/** Opens clients of interface A at `sandbox()` (see accountsClientOf), each kept in `opened` for closeAll. */
export function accountsConnector(
  sandbox: () => RunningSandbox,
  opened: AccountsClient[],
): (clientId: string, options?: Partial<AccountsClientOptions>) => AccountsClient {
  return (clientId, options = {}) => {
    const client = accountsClientOf(sandbox(), clientId, options);
    opened.push(client);
    return client;
  };
}

/** A client of interface D at the sandbox, as `clientId`. */
export function coreBankingClientOf(
  sandbox: RunningSandbox,
  clientId: string,
  options: Partial<CoreBankingClientOptions> = {},
): CoreBankingClient {
  return createCoreBankingClient({ ...sandboxClientOptions, baseUrl: sandbox.urlOf('core-banking'), clientId, ...options });
}

/** Closes the clients a test file opened (any not opened is skipped), then stops its sandbox. */
export async function closeAll(
  sandbox: RunningSandbox | undefined,
  clients: readonly ({ close(): Promise<void> } | undefined)[],
): Promise<void> {
  for (const client of clients) await client?.close();
  await sandbox?.stop();
}

/** A bearer token of interface A for `clientId`, asked for past the client. */
export async function accountsToken(sandbox: RunningSandbox, clientId: string): Promise<string> {
  const answer = await fetch(`${sandbox.urlOf('accounts')}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret: 'sandbox-secret', grantType: 'client_credentials' }),
  });
  return ((await answer.json()) as { accessToken: string }).accessToken;
}

/** A call of interface A with a token of `clientId`, for what the client refuses to send: the status and the JSON answer. */
export async function rawAccountsCall(
  sandbox: RunningSandbox,
  clientId: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Record<string, any> }> {
  const accessToken = await accountsToken(sandbox, clientId);
  const answer = await fetch(`${sandbox.urlOf('accounts')}${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

let accountsBundle: Record<string, any> | undefined;

/** Issues of an interface A event body against its event's schema, every object and every known value list closed. */
export function strictEventIssues(payload: Record<string, unknown>): string[] {
  accountsBundle ??= JSON.parse(readFileSync(bundledSpecPath('accounts'), 'utf8')) as Record<string, any>;
  const schema = accountsBundle.webhooks[payload.type as string]?.post.requestBody.content['application/json'].schema;
  if (!schema) return [`no event ${String(payload.type)}`];
  return check(strictValidator(accountsBundle, schema), payload).map((issue) => `${issue.pointer}: ${issue.message}`);
}

/** An account at another institution, as a TED's creditorAccount names it. */
export const tedCreditor = {
  ispb: '99999020',
  issuer: '0001',
  number: '774411',
  accountType: 'CACC' as const,
  document: '11144477735',
  name: 'Carlos Eduardo Lima',
};

/** Two retries after 10 to 50 ms: a client that survives a planned fault without slowing the test. */
export const quickRetries = { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 } as const;
