/**
 * What the Pix sandbox holds: the receiving user (its ISPB, name, city and Pix keys), the charges with
 * every revision, the payload locations, the Pix received with their refunds, and the webhooks per key.
 * Plain JSON, so a snapshot is its text. Amounts are kept as the API writes them ("10.50").
 */
import type { SandboxEnvironment } from '../contract.js';

export type Json = Record<string, unknown>;

export interface StoredCharge {
  readonly kind: 'cob' | 'cobv';
  /** The charge as GET answers it, without `pix` (joined from `received` when answering). */
  current: Json;
  /** Every revision as it was, by `revisao` (GET ?revisao=n). */
  revisions: Json[];
  /** End-to-end ids of the Pix that paid it. */
  paidBy: string[];
}

export interface PixState {
  readonly receiver: { readonly ispb: string; readonly name: string; readonly city: string; readonly cnpj: string; keys: string[] };
  charges: Record<string, StoredCharge>;
  /** Payload locations by id (as text). */
  locations: Record<string, Json>;
  nextLocationId: number;
  /** Pix received, by endToEndId, each with `devolucoes`. */
  received: Record<string, Json>;
  /** Webhooks by key (PUT /webhook/{chave}). */
  webhooks: Record<string, Json>;
  /** Location access token → txid of the charge linked to it. */
  locationTokens: Record<string, string>;
  /** Recurrences by idRec, as GET /rec/{idRec} answers them without `solicitacao` and `dadosQR` (joined when answering). */
  recurrences: Record<string, Json>;
  /** Recurrence locations (locrec) by id (as text), each with its access `token` (kept inside the sandbox). */
  recLocations: Record<string, Json>;
  nextRecLocationId: number;
  /** Recurrence location access token → idRec of the recurrence linked to it. */
  recLocationTokens: Record<string, string>;
  /** Recurrence confirmation requests (solicrec) by idSolicRec, as GET answers them without `recPayload`. */
  confirmations: Record<string, Json>;
  /** Recurring charges (cobr) by txid. */
  recurringCharges: Record<string, StoredRecurringCharge>;
  /** The account recurring charges are paid into (`recebedor` of POST /cobr must name it). */
  readonly recurringAccount: { readonly agencia: string; readonly conta: string; readonly tipoConta: string };
  /** Webhooks of recurrences (PUT /webhookrec) and of recurring charges (PUT /webhookcobr). */
  recurrenceWebhooks: { rec?: Json; cobr?: Json };
  /** Batches of due-date charges (lotecobv) by id. */
  batches: Record<string, StoredBatch>;
  /** txid → id of the batch that lists it. */
  batchOfTxid: Record<string, string>;
}

export interface StoredRecurringCharge {
  /** The charge as GET /cobr/{txid} answers it, without `pix` (joined from `received`). */
  current: Json;
  /** End-to-end ids of the Pix that settled it. */
  paidBy: string[];
}

export interface StoredBatch {
  /** The batch as GET /lotecobv/{id} answers it. */
  view: Json;
  /** Entries still EM_PROCESSAMENTO: txid → the request and how to apply it (create, replace or revise). */
  pending: Record<string, { body: Json; mode: 'create' | 'replace' | 'revise' }>;
  /** Sandbox time (ms) at which the pending entries are processed. */
  processAtMs: number;
  /** The module's address when the batch was sent, for the locations of the charges it creates. */
  baseUrl: string;
}

/** ISPB the sandbox PSP answers with, and the one its made-up payers' PSP has. */
export const sandboxIspb = '99999010';
export const payerIspb = '99999020';

/** The Pix sandbox before its seed: the receiving user, nothing else; seed.ts `createPixState` adds what the platform made. */
export function emptyPixState(): PixState {
  const state: PixState = {
    receiver: {
      ispb: sandboxIspb,
      name: 'Loja Sandbox Ltda',
      city: 'SAO PAULO',
      cnpj: '11222333000181',
      // An e-mail, a CNPJ and a random key, as a receiving user usually holds; fixed, not drawn from the seed,
      // because the spec's examples name them and every sample runs as printed against any seed.
      keys: ['cobrancas@sandbox.example.com', '11222333000181', '2d4c3a7e-9b61-4f0e-8a55-7c1b6d0e9f42'],
    },
    charges: {},
    locations: {},
    nextLocationId: 1,
    received: {},
    webhooks: {},
    locationTokens: {},
    recurrences: {},
    recLocations: {},
    nextRecLocationId: 1,
    recLocationTokens: {},
    confirmations: {},
    recurringCharges: {},
    recurringAccount: { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' },
    recurrenceWebhooks: {},
    batches: {},
    batchOfTxid: {},
  };
  return state;
}

/** "10.50" → 1050; amounts in the API are decimal text with two places. */
export function cents(amount: unknown): number {
  const match = typeof amount === 'string' ? /^(\d+)\.(\d{2})$/.exec(amount) : null;
  return match ? Number(match[1]) * 100 + Number(match[2]) : Number.NaN;
}

export function amountOf(value: number): string {
  return `${Math.trunc(value / 100)}.${String(value % 100).padStart(2, '0')}`;
}

/** RFC 3339 in UTC with milliseconds, as the sandbox writes instants. */
export const instant = (env: SandboxEnvironment, offsetMs = 0): string => new Date(env.clock.nowMs() + offsetMs).toISOString();

/**
 * A page of `items` as the API Pix pages: `paginacao.paginaAtual` from 0, `itensPorPagina` default 100.
 * `quantidadeDePaginas` is at least 1 (the standard's minimum): nothing matched is one empty page.
 */
export function page<T>(items: readonly T[], query: Readonly<Record<string, unknown>>): { items: T[]; paginacao: Json } {
  const current = typeof query['paginacao.paginaAtual'] === 'number' ? (query['paginacao.paginaAtual'] as number) : 0;
  const size = typeof query['paginacao.itensPorPagina'] === 'number' ? (query['paginacao.itensPorPagina'] as number) : 100;
  return {
    items: items.slice(current * size, current * size + size),
    paginacao: {
      paginaAtual: current,
      itensPorPagina: size,
      quantidadeDePaginas: Math.max(1, Math.ceil(items.length / size)),
      quantidadeTotalDeItens: items.length,
    },
  };
}

/** Whether an RFC 3339 instant lies between the `inicio` and `fim` of a list query (both inclusive). */
export function within(at: unknown, query: Readonly<Record<string, unknown>>): boolean {
  const time = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  const from = typeof query.inicio === 'string' ? Date.parse(query.inicio) : Number.NEGATIVE_INFINITY;
  const to = typeof query.fim === 'string' ? Date.parse(query.fim) : Number.POSITIVE_INFINITY;
  return time >= from && time <= to;
}
