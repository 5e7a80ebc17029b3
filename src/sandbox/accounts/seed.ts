/**
 * A fresh accounts sandbox: the account credential's own account (a legal person), the BaaS partner's
 * owner account and three child accounts (a natural person, a legal person, and a closed natural person
 * account no credential can be issued for), each funded by one opening credit in its ledger and with two
 * invoice customers; two keys held at another institution for lookups; the history of the spec's example
 * wallet ingested for account 2001; CaaS mid prices from the seed.
 * Documents carry valid check digits.
 */
import type { SandboxEnvironment } from '../contract.js';
import { type Account, type AccountsState, type Json, next, partyOf, type PersonType } from './state.js';

const address = (street: string, number: string, district: string, city: string, zipCode: string, uf: string): Json => ({
  address: street,
  number,
  complement: null,
  district,
  city,
  zipCode,
  uf,
});

/** The wallet the spec's example risk analysis names. */
const exampleWallet = { network: 'ETHEREUM', address: '0xdaeeb975729fae923d5a4fd12aabfe228f219e9c' } as const;

export function createAccountsState(env: SandboxEnvironment): AccountsState {
  const createdAt = new Date(env.clock.nowMs() - 30 * 86_400_000).toISOString();
  const account = (
    id: number,
    personType: PersonType,
    name: string,
    tradeName: string | null,
    document: string,
    child: boolean,
  ): Account => ({
    id,
    number: String(id * 10 + (id % 7)),
    branch: '0001',
    personType,
    name,
    tradeName,
    document,
    status: 1,
    apiEnabled: true,
    child,
    createdAt,
    updatedAt: createdAt,
  });
  const accounts = [
    account(1001, 'LEGAL_PERSON', 'Padaria Boa Vista Ltda', 'Padaria Boa Vista', '45723174000110', false),
    account(2000, 'LEGAL_PERSON', 'Fintech Sandbox S.A.', 'Fintech Sandbox', '33445566000186', false),
    account(2001, 'NATURAL_PERSON', 'Mariana Costa Ribeiro', null, '52998224725', true),
    account(2002, 'LEGAL_PERSON', 'Oficina Horizonte Ltda', 'Oficina Horizonte', '11222333000181', true),
    account(2003, 'NATURAL_PERSON', 'Joao Pedro Alves', null, '39053344705', true),
  ];
  // A closed child account: no credentials can be issued for it (section 4.3).
  accounts[4]!.status = 0;
  accounts[4]!.apiEnabled = false;
  const state: AccountsState = {
    accounts: Object.fromEntries(accounts.map((entry) => [String(entry.id), entry])),
    ownAccountId: 1001,
    baasOwnerAccountId: 2000,
    ledger: [],
    keys: [],
    challenges: [],
    directory: [
      { name: 'Carlos Eduardo Lima', tradeName: null, keyType: 'CPF', key: '11144477735', document: '***.444.777-**' },
      {
        name: 'Mercado Central Ltda',
        tradeName: 'Mercado Central',
        keyType: 'EMAIL',
        key: 'pix@mercadocentral.example.com',
        document: '86.288.366/0001-**',
      },
    ],
    teds: [],
    transfers: [],
    billetPayments: [],
    awaitingApproval: [],
    billetQueries: {},
    invoices: [],
    customers: [],
    webhooks: [],
    wallets: [],
    quotes: [],
    orders: [],
    analyses: [],
    // The history of the wallet the spec's example analyses is already ingested for the samples' account
    // (an ingest is the platform's work): its first analysis closes a snapshot (201) as printed.
    ingests: { [`2001:${exampleWallet.network}:${exampleWallet.address}`]: { status: 'IDLE', persisted: 42 } },
    onboardings: [],
    credentials: [],
    idempotency: {},
    sequences: {},
    prices: {
      BTC: 35_000_000 + env.random.integer(0, 2_000_000) * 10,
      ETH: 1_800_000 + env.random.integer(0, 100_000),
      USDT: 575 + env.random.integer(0, 20),
      USDC: 575 + env.random.integer(0, 20),
    },
  };
  for (const entry of accounts) {
    // Every account starts funded: one credit in its ledger, so balances are derived from what happened. The
    // ids follow the accounts' order: 900002 is the opening credit of 2001, the spec's example transaction.
    state.ledger.push({
      accountId: entry.id,
      id: next(state, 'transaction', 900_000),
      uuid: env.random.uuid(),
      createdAt,
      eventDate: createdAt,
      status: 'LIQUIDATED',
      transactionType: 'INTERNAL',
      direction: 'CREDIT',
      cents: 10_000_000,
      endToEndId: null,
      txId: null,
      idempotencyKey: null,
      localInstrument: null,
      debtor: partyOf(accounts[1]!),
      creditor: partyOf(entry),
      remittanceInformation: 'Saldo inicial do sandbox',
      errorCode: null,
      source: 'opening',
    });
    state.customers.push(
      {
        id: entry.id * 10 + 1,
        accountId: entry.id,
        name: 'Comercio Pao Dourado Ltda',
        email: 'compras@paodourado.example.com',
        phone: '+5541932104455',
        document: '86288366000100',
        address: address('Rua das Flores', '120', 'Centro', 'Curitiba', '80010000', 'PR'),
      },
      {
        id: entry.id * 10 + 2,
        accountId: entry.id,
        name: 'Ana Beatriz Souza',
        email: null,
        phone: null,
        document: '86288366757',
        address: address('Avenida Brasil', '1500', 'Jardim America', 'Sao Paulo', '01430001', 'SP'),
      },
    );
  }
  return state;
}
