/**
 * The data a fresh core banking sandbox holds, drawn from the seeded random so a seed repeats it: two BaaS
 * partners, each with its main account (a company, CNPJ) and three child accounts (people, CPF; documents
 * with valid check digits), the last child account of the second partner closed (INACTIVE); two payers per
 * child account; two bankarization products. BaaS callers act for the first partner, account callers for
 * its first child account, 48213 whatever the seed (the account the spec's examples name).
 */
import { cnpjCheckDigits } from '../../formats/documents.js';
import type { SandboxEnvironment, SeededRandom } from '../contract.js';
import type { CoreBankingState, StoredAccount, StoredCustomer } from './state.js';

const isoOf = (ms: number): string => new Date(ms).toISOString();

/** The account of the caller's partner the spec's examples name (`accountId: 48213`). */
export const exampleAccountId = 48_213;
/** The first payer of that account the spec's examples name (`customerId: 7781`). */
export const exampleCustomerId = 7_781;

const firstNames = ['Mariana', 'João Pedro', 'Ana Luiza', 'Rafael', 'Beatriz', 'Lucas', 'Camila', 'Gustavo', 'Larissa', 'Felipe'];
const surnames = ['Costa Ribeiro', 'Almeida', 'Souza Lima', 'Ferreira', 'Oliveira Santos', 'Pereira', 'Carvalho', 'Gomes Rocha'];
const partnerNames = ['Aurora Pagamentos Ltda', 'Ipê Serviços Financeiros S.A.', 'Vila Digital Instituição de Pagamento Ltda'];
const streets = [
  { address: 'Rua Harmonia', district: 'Vila Madalena', city: 'São Paulo', uf: 'SP', zipCode: '05435000' },
  { address: 'Avenida Afonso Pena', district: 'Centro', city: 'Belo Horizonte', uf: 'MG', zipCode: '30130005' },
  { address: 'Rua das Laranjeiras', district: 'Laranjeiras', city: 'Rio de Janeiro', uf: 'RJ', zipCode: '22240003' },
];

const pick = <T>(random: SeededRandom, items: readonly T[]): T => items[random.integer(0, items.length - 1)]!;

/** A CPF with valid check digits (section 2.1: documents are digits only). */
export function generateCpf(random: SeededRandom): string {
  let base = random.text(9, '0123456789');
  while (/^(.)\1*$/.test(base)) base = random.text(9, '0123456789');
  const digits = [...base].map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let index = 0; index < length; index += 1) sum += digits[index]! * (length + 1 - index);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/** A numeric CNPJ (head office, branch 0001) with valid check digits. */
export function generateCnpj(random: SeededRandom): string {
  const base = `${random.text(8, '0123456789')}0001`;
  return `${base}${cnpjCheckDigits(base)}`;
}

const personName = (random: SeededRandom): string => `${pick(random, firstNames)} ${pick(random, surnames)}`;

function seedAccount(
  state: CoreBankingState,
  random: SeededRandom,
  nowMs: number,
  id: number,
  partnerId: string,
  person: StoredAccount['person'],
  main: boolean,
): StoredAccount {
  const createdMs = nowMs - random.integer(30, 400) * 86_400_000 - random.integer(0, 86_399) * 1000;
  const account: StoredAccount = {
    id: String(id),
    number: String(10_000_000 + id),
    type: 'CHECKING',
    partnerId,
    main,
    status: 'ACTIVE',
    person,
    createdAt: isoOf(createdMs),
    updatedAt: isoOf(createdMs),
    closedAt: null,
    openingCents: random.integer(50_000, 5_000_000),
    pixKey: null,
  };
  state.accounts[account.id] = account;
  return account;
}

function seedCustomers(state: CoreBankingState, random: SeededRandom, account: StoredAccount, firstId: number): void {
  for (let index = 0; index < 2; index += 1) {
    const name = personName(random);
    const street = pick(random, streets);
    const customer: StoredCustomer = {
      id: firstId + index,
      accountId: Number(account.id),
      name,
      email: `${name
        .split(' ')[0]!
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}.${firstId + index}@example.com`,
      phone: `+55119${random.text(8, '0123456789')}`,
      document: generateCpf(random),
      address: { ...street, number: String(random.integer(10, 2500)), complement: null },
    };
    state.customers[String(customer.id)] = customer;
  }
}

function seedProducts(state: CoreBankingState): void {
  const common = {
    personType: 'NATURAL_PERSON',
    allowedPeriods: ['MONTHLY'],
    amortizationOptions: ['PRICE', 'SAC'],
    parameters: [],
    ratePolicies: [{ kind: 'FIXED', monthlyRate: 1.89 }],
  };
  state.products['1'] = {
    id: 1,
    name: 'Crédito pessoal',
    description: 'Empréstimo pessoal com parcelas mensais fixas',
    creditType: 'PERSONAL_LOAN',
    minTerm: 3,
    maxTerm: 36,
    minAmount: 500,
    maxAmount: 30_000,
    maxGracePeriodDays: 60,
    interestRatesRequired: false,
    ...common,
  };
  state.products['2'] = {
    id: 2,
    name: 'Capital de giro pessoa física',
    description: 'Crédito para o microempreendedor, com carência',
    creditType: 'WORKING_CAPITAL',
    minTerm: 6,
    maxTerm: 24,
    minAmount: 2_000,
    maxAmount: 80_000,
    maxGracePeriodDays: 90,
    interestRatesRequired: true,
    ...common,
  };
}

/** Two BaaS partners, each with its main account (a company) and child accounts (people), one of them closed. */
export function createCoreBankingState(env: SandboxEnvironment): CoreBankingState {
  const { random } = env;
  const nowMs = env.clock.nowMs();
  const state: CoreBankingState = {
    partners: {},
    accounts: {},
    customers: {},
    callerPartnerId: '',
    callerAccountId: '',
    feeRules: {},
    invoices: {},
    nextInvoiceId: random.integer(90_000, 90_900),
    idempotency: {},
    products: {},
    applications: {},
    credentials: {},
    nextCredentialId: random.integer(100, 900),
  };
  // The first partner's main account and first child account have the ids the spec's examples name (the
  // child account 48213 is the one account callers act for), so the reference samples run as printed.
  let accountId = exampleAccountId - 1;
  // The payers of account 48213 are 7781 and 7782, the customers the spec's examples name.
  let customerId = exampleCustomerId;
  const partnerIds: string[] = [];
  for (const name of [partnerNames[0]!, pick(random, partnerNames.slice(1))]) {
    const partnerId = random.uuid();
    partnerIds.push(partnerId);
    const main = seedAccount(
      state,
      random,
      nowMs,
      accountId,
      partnerId,
      { name, document: generateCnpj(random), type: 'LEGAL_PERSON' },
      true,
    );
    state.partners[partnerId] = { id: partnerId, name, mainAccountId: main.id, createdAt: main.createdAt };
    for (let child = 0; child < 3; child += 1) {
      accountId += partnerIds.length === 1 && child === 0 ? 1 : random.integer(1, 40);
      const account = seedAccount(
        state,
        random,
        nowMs,
        accountId,
        partnerId,
        { name: personName(random), document: generateCpf(random), type: 'NATURAL_PERSON' },
        false,
      );
      seedCustomers(state, random, account, customerId);
      customerId += 2;
    }
    accountId += random.integer(1, 40);
  }
  // The last child account of the second partner is closed: the INACTIVE status section 2.13 shows.
  const closed = Object.values(state.accounts).at(-1)!;
  closed.status = 'INACTIVE';
  closed.closedAt = isoOf(nowMs - random.integer(1, 20) * 86_400_000);
  closed.updatedAt = closed.closedAt;
  seedProducts(state);
  const firstChild = Object.values(state.accounts).find((account) => account.partnerId === partnerIds[0] && !account.main)!;
  return { ...state, callerPartnerId: partnerIds[0]!, callerAccountId: firstChild.id };
}
