/**
 * The control plane cannot break the contract, as a property (issue 26, item 3): a strict sandbox of every
 * interface, a world of charges, recurrences, invoices, orders and onboardings made through the clients,
 * then seeded random control calls — every verb, the clock, faults, resends, with values the contract
 * accepts and values it refuses (the reproduction first: a pay of 12345678901.00 with 5000 characters of
 * infoPagador). Afterwards every resource is read back through the package's own strict clients, every
 * webhook delivered is checked against its strict schema, and the sandbox's own strict check reports no
 * drift. Replay a run with CONTRATO_SEED=<seed>.
 */
import { examplePacs008 } from '../helpers/pacs008.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient } from '../../src/accounts/index.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { strictValidator } from '../../src/checks/strict-response.js';
import type { CoreBankingClient } from '../../src/core-banking/index.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createMessagesClient } from '../../src/messages/index.js';
import type { PixClient } from '../../src/pix/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { check } from '../../src/runtime/validation.js';
import { createMessagesSandbox } from '../../src/sandbox/messages/index.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { type ControlWorld, controlFuzzer } from '../helpers/control-fuzz.js';
import {
  accountsClientOf,
  control,
  coreBankingClientOf,
  deliveries,
  pixClientOf,
  type Receiver,
  startReceiver,
  strictEventIssues,
} from '../helpers/sandbox.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';

const controlCalls = 150;
const seed = testSeed('control plane property', 'CONTRATO_SEED');
const key = 'cobrancas@sandbox.example.com';

let pki: TestPki;
let sandbox: RunningSandbox;
let receiver: Receiver;
const delivered: { path: string; body: Record<string, unknown> }[] = [];
let pix: PixClient;
let account: AccountsClient;
let baas: AccountsClient;
let bank: CoreBankingClient;
let startedMs: number;

/** A date of the São Paulo calendar `days` after the sandbox's today. */
const day = (days: number): string => todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + days * 86_400_000));

beforeAll(async () => {
  pki = createTestPki();
  // The messages module answers an empty poll at once, so reading the queue to its end takes no waiting.
  const modules = sandboxModules.map((module) => (module.document === 'messages' ? createMessagesSandbox({ pollWaitMs: 0 }) : module));
  sandbox = await startSandbox({ modules, seed: `control-property-${seed}`, strict: true });
  startedMs = sandbox.env.clock.nowMs();
  receiver = await startReceiver((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      delivered.push({ path: request.url ?? '/', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      response.writeHead(200).end();
    });
  });
  pix = pixClientOf(sandbox);
  account = accountsClientOf(sandbox, 'sandbox-account');
  baas = accountsClientOf(sandbox, 'baas_sandbox');
  bank = coreBankingClientOf(sandbox, 'sandbox-core');
});
afterAll(async () => {
  for (const client of [pix, account, baas, bank]) await client?.close();
  await sandbox?.stop();
  await receiver?.close();
  pki?.dispose();
});

/** Charges, recurrences, invoices, a wallet with an order, an onboarding: what the verbs act on. */
async function makeWorld(): Promise<ControlWorld> {
  await pix.webhook.configure({ path: { chave: key }, body: { webhookUrl: `${receiver.url}/pix-hooks` } });
  await pix.webhookRec.configure({ body: { webhookUrl: `${receiver.url}/pix-hooks` } });
  await pix.webhookCobR.configure({ body: { webhookUrl: `${receiver.url}/pix-hooks` } });
  const cobs = [generateTxid(), generateTxid(), generateTxid()];
  for (const txid of cobs)
    await pix.cob.replace({ path: { txid }, body: { calendario: { expiracao: 86_400 }, valor: { original: '25.90' }, chave: key } });
  const cobvs = [generateTxid(), generateTxid()];
  for (const txid of cobvs)
    await pix.cobv.replace({
      path: { txid },
      body: {
        calendario: { dataDeVencimento: day(10), validadeAposVencimento: 30 },
        devedor: { cpf: '12345678909', nome: 'Mariana Costa Ribeiro' },
        valor: { original: '120.00' },
        chave: key,
      },
    });
  const recurrence = () =>
    pix.rec.create({
      body: {
        vinculo: { objeto: 'Plano academia', contrato: 'CT-2026-0001', devedor: { cpf: '12345678909', nome: 'Mariana Costa' } },
        calendario: { dataInicial: day(1), periodicidade: 'MENSAL' },
        valor: { valorRec: '49.90' },
        politicaRetentativa: 'PERMITE_3R_7D',
      } as never,
    });
  const approved = (await recurrence()).idRec;
  await control(sandbox, '/pix/rec', { idRec: approved, status: 'APROVADA' });
  const recebedor = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' as const };
  const cobr = await pix.cobr.create({
    body: { idRec: approved, calendario: { dataDeVencimento: day(5) }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor },
  });
  const pending = (await recurrence()).idRec;
  const solicrec = await pix.solicrec.create({
    body: {
      idRec: pending,
      calendario: { dataExpiracaoSolicitacao: new Date(sandbox.env.clock.nowMs() + 86_400_000).toISOString() },
      destinatario: { conta: '998877', ispbParticipante: '99999020', cpf: '12345678909' },
    },
  });

  const hook = { body: { uri: `${receiver.url}/accounts-hooks`, enabled: true } };
  await account.webhooks.registerReceive(hook);
  await account.webhooks.registerInvoice(hook);
  await account.webhooks.registerCrypto(hook);
  const pixKey = (await account.keys.create({ body: { keyType: 'EVP' } })).key!;
  const invoice = { customerId: 10011, pixKey, dueDate: '2030-04-20', amount: 249.9, type: 'IMMEDIATE' as const, description: 'Pedido 1' };
  const accountInvoices = [
    (await account.invoices.create({ body: invoice }, { idempotencyKey: 'inv-p1' })).id!,
    (await account.invoices.create({ body: { ...invoice, amount: 10 } }, { idempotencyKey: 'inv-p2' })).id!,
  ];
  const wallet = (await account.caasWallets.create({ body: { network: 'ETH', address: `0x${'a'.repeat(40)}`, alias: 'Principal' } })).data;
  const quote = (
    await account.caasQuotes.create({ body: { operation: 'BUY', network: 'ETH', asset: 'ETH', destinationWalletId: wallet.id! } })
  ).data;
  const order = (
    await account.caasOrders.create({
      body: { operation: 'BUY', quoteId: quote.id!, amountBrl: '250.00', destinationWalletId: wallet.id! },
    })
  ).data;
  const person = { name: 'Beatriz Nunes Prado', document: '86288366757', phone: '+5511987654321' };
  const address = { zipCode: '01310100', address: 'Avenida Paulista', number: '1000', district: 'Bela Vista' };
  const onboarding = await baas.onboarding.create({ body: { accountType: 'NATURAL_PERSON', person: { ...person, address } } });

  const coreAccountId = Number(sandbox.stateOf<{ callerAccountId: unknown }>('core-banking').callerAccountId);
  const { customers } = await control(sandbox, '/core-banking/customers', { accountId: coreAccountId });
  const coreInvoice = { customerId: customers[0].id, dueDate: '2030-04-10', type: 'IMMEDIATE' as const };
  const coreInvoices = [
    (
      await bank.invoices.create({
        path: { accountId: coreAccountId },
        body: { ...coreInvoice, pixKey: 'a4cc548d-286b-4c49-934c-bc3a0ab605a6', amount: 249.9 },
      })
    ).id!,
    (await bank.invoices.create({ path: { accountId: coreAccountId }, body: { ...coreInvoice, paymentMethod: 'BOLETO', amount: 1500 } }))
      .id!,
  ];
  const payment = () => examplePacs008(new Date(sandbox.env.clock.nowMs())) as unknown as Record<string, unknown>;
  return {
    cobs,
    cobvs,
    recs: [approved, pending],
    solicrecs: [solicrec.idSolicRec],
    cobrs: [cobr.txid],
    accountInvoices,
    wallets: [wallet.id!],
    orders: [order.id!],
    onboardings: [onboarding.id!],
    coreInvoices,
    coreAccountId,
    payment,
  };
}

/** A control call as answered: its status. */
async function post(path: string, body: unknown): Promise<number> {
  const answer = await fetch(`${sandbox.url}/_sandbox${path}`, { method: 'POST', body: JSON.stringify(body) });
  await answer.arrayBuffer();
  return answer.status;
}

const pixBundle = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as Record<string, unknown>;
const pixNotifications: Record<string, string> = { pix: 'NotificacaoPix', rec: 'NotificacaoRec', cobr: 'NotificacaoCobR' };

/** Strict clients with tokens of the sandbox's present: the clock the calls moved may have expired the first ones. */
function readingClients() {
  return {
    pix: pixClientOf(sandbox),
    account: accountsClientOf(sandbox, 'sandbox-account'),
    baas: accountsClientOf(sandbox, 'baas_sandbox'),
    bank: coreBankingClientOf(sandbox, 'sandbox-core'),
    messages: createMessagesClient({
      baseUrl: sandbox.urlOf('messages'),
      login: { clientId: 'sandbox-messages', clientSecret: 'sandbox-secret' },
      tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase },
      responseValidation: 'strict',
      retry: { maxRetries: 0 },
    }),
  };
}

/** Reads every resource back through fresh strict clients; the number read and what went wrong. */
async function readBack(): Promise<{ read: number; violations: string[] }> {
  const clients = readingClients();
  try {
    return await readEverything(clients);
  } finally {
    for (const client of Object.values(clients)) await client.close();
  }
}

async function readEverything({ pix, account, baas, bank, messages }: ReturnType<typeof readingClients>) {
  const violations: string[] = [];
  let read = 0;
  const attempt = async <T>(what: string, call: () => Promise<T>): Promise<T | undefined> => {
    try {
      const answer = await call();
      read += 1;
      return answer;
    } catch (error) {
      violations.push(`${what}: ${(error as Error).message}`);
      return undefined;
    }
  };
  const now = sandbox.env.clock.nowMs();
  const window = { inicio: new Date(startedMs - 3_600_000).toISOString(), fim: new Date(now + 86_400_000).toISOString() };
  for (const cob of (await attempt('cob.list', () => pix.cob.list({ query: window })))?.cobs ?? [])
    await attempt(`cob.get ${cob.txid}`, () => pix.cob.get({ path: { txid: cob.txid! } }));
  for (const cob of (await attempt('cobv.list', () => pix.cobv.list({ query: window })))?.cobs ?? [])
    await attempt(`cobv.get ${cob.txid}`, () => pix.cobv.get({ path: { txid: cob.txid! } }));
  for (const received of (await attempt('pix.list', () => pix.pix.list({ query: window })))?.pix ?? [])
    await attempt(`pix.get ${received.endToEndId}`, () => pix.pix.get({ path: { e2eid: received.endToEndId } }));
  for (const rec of (await attempt('rec.list', () => pix.rec.list({ query: window })))?.recs ?? [])
    await attempt(`rec.get ${rec.idRec}`, () => pix.rec.get({ path: { idRec: rec.idRec! } }));
  for (const cobr of (await attempt('cobr.list', () => pix.cobr.list({ query: window })))?.cobsr ?? [])
    await attempt(`cobr.get ${cobr.txid}`, () => pix.cobr.get({ path: { txid: cobr.txid! } }));
  await attempt('webhook.list', () => pix.webhook.list({ query: window }));

  const span = { event_date_start: window.inicio, event_date_end: window.fim, page_limit: 100 };
  await attempt('transactions.list', () => account.transactions.list({ query: span }));
  await attempt('balance.get', () => account.balance.get());
  for (const invoice of (await attempt('invoices.list', () => account.invoices.list()))?.data ?? [])
    await attempt(`invoices.get ${invoice.id}`, () => account.invoices.get({ path: { invoiceId: invoice.id! } }));
  await attempt('caasWallets.list', () => account.caasWallets.list());
  for (const order of (await attempt('caasOrders.list', () => account.caasOrders.list()))?.data ?? [])
    await attempt(`caasOrders.get ${order.id}`, () => account.caasOrders.get({ path: { id: order.id! } }));
  for (const onboarding of (await attempt('onboardings.list', () => baas.onboardings.list()))?.data ?? [])
    await attempt(`onboardings.get ${onboarding.id}`, () => baas.onboardings.get({ path: { id: onboarding.id! } }));

  const accountId = Number(sandbox.stateOf<{ callerAccountId: unknown }>('core-banking').callerAccountId);
  for (const invoice of (await attempt('core invoices.list', () => bank.invoices.list({ path: { accountId } })))?.data ?? [])
    await attempt(`core invoices.get ${invoice.id}`, () => bank.invoices.get({ path: { accountId, invoiceId: invoice.id! } }));
  await attempt('core accounts.balance', () => bank.accounts.balance({ path: { id: accountId } }));

  // The queue from its start to its end, one poll at a time (the poller of the package waits on an empty queue).
  let cursor = 'start';
  for (let polls = 0; polls < 50; polls += 1) {
    const polled = await attempt(`messages.poll ${cursor}`, () => messages.messages.poll({ path: { pullNext: cursor } }).withResponse());
    const next = polled?.response.headers.get('svc-pull-next');
    if (!polled || !next || polled.data.length === 0) break;
    read += polled.data.length - 1;
    cursor = next;
  }

  for (const { path, body } of delivered) {
    read += 1;
    const kind = /^\/pix-hooks\/(pix|rec|cobr)$/.exec(path)?.[1];
    const issues = kind
      ? check(strictValidator(pixBundle, { $ref: `#/components/schemas/${pixNotifications[kind]}` }), body).map((issue) => issue.message)
      : strictEventIssues(body);
    for (const issue of issues) violations.push(`webhook ${path}: ${issue}`);
  }
  violations.push(...sandbox.drifts().map((drift) => `drift: ${drift}`));
  return { read, violations };
}

describe('the control plane cannot break the contract', () => {
  it('random control calls, then every resource read back strictly: 0 violations', { timeout: 240_000 }, async () => {
    const world = await makeWorld();
    const fuzzer = controlFuzzer(seededRandom(seed), world);
    const failures: string[] = [];
    let accepted = 0;
    let deliveryIds: string[] = [];
    const calls = [{ path: '/pix/pay', body: { txid: world.cobs[0], valor: '12345678901.00', infoPagador: 'x'.repeat(5000) } }];
    for (let index = 0; index < controlCalls; index += 1) {
      if (index % 10 === 0) deliveryIds = (await deliveries(sandbox)).map((entry) => entry.id);
      const call = calls[index] ?? fuzzer.next(deliveryIds);
      const status = await post(call.path, call.body);
      if (status < 300) accepted += 1;
      else if (status >= 500) failures.push(`control ${call.path} answered ${status} to ${JSON.stringify(call.body).slice(0, 200)}`);
    }
    // Faults planned by the calls are for API calls; none may meet the reads, and the clock runs at its own pace again.
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    await post('/clock', { speed: 1 });
    const { read, violations } = await readBack();
    violations.unshift(...failures);
    console.log(
      `seed ${seed}: ${controlCalls} control calls (${accepted} accepted, ${controlCalls - accepted} refused), ${read} resources read back, ${violations.length} violations`,
    );
    expect(violations).toEqual([]);
  });
});
