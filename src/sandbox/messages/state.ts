/**
 * What the messages sandbox holds (interface C): the queue of received messages that the long poll reads
 * with cursors, the messages the participant sent, the answers it still owes to messages it received,
 * the rejections it was told to give, and the key directory (DICT) with its fraud markers. Plain JSON, so
 * a snapshot is its text. The format of polled messages is not shown (section 6.5): each is the message's
 * body with `messageType` (as the spec's example shows) and `idMensagem`, the instruction id a pacs.002
 * names as `idInstrucaoOriginal`.
 */
import { readFileSync } from 'node:fs';
import { messageTable } from '../../../generated/messages/operations.js';
import { patternDescriptions, validators } from '../../../generated/messages/validators.js';
import { bundledSpecPath } from '../../checks/registry.js';
import type { ValidationIssue } from '../../runtime/errors.js';
import { check, type CompiledValidator } from '../../runtime/validation.js';
import { type SandboxEnvironment, SandboxProblem } from '../contract.js';

export type Json = Record<string, unknown>;

/** A message on the receive queue: its place (1, 2, …) and what a poll answers. */
export interface QueuedMessage {
  readonly sequence: number;
  readonly message: Json;
}

/** A message the participant sent, with the receipt it was answered with. */
export interface SentMessage {
  readonly messageType: string;
  readonly body: Json;
  readonly receipt: Json;
  readonly at: string;
  /** The code the other side rejected it with (a pacs.008 answered RJCT). */
  readonly rejectedWith?: string;
}

/** Rejection the sandbox was told to give to the next sends of `message`, or to the one with `id`. */
export interface Rejection {
  readonly message: string;
  readonly code: string;
  readonly id?: string;
  remaining: number;
}

export interface MessagesState {
  /** Prefix of every cursor of this state: a cursor of another run (or before a reset) is refused, not misread. */
  readonly epoch: string;
  queue: QueuedMessage[];
  nextSequence: number;
  sent: SentMessage[];
  /** `<message>:<id>` of a sent message the other participant answers (pacs.008 by its endToEndID) → index in `sent`. */
  sentIds: Record<string, number>;
  /** `<reply>:<id>` → whether the participant answered a message it received (a pacs.002 for a pacs.008). */
  owed: Record<string, { readonly sequence: number; answered: boolean }>;
  rejections: Rejection[];
  /** The key directory, by key. */
  keys: Record<string, Json>;
  /** Fraud markers by RequestId (the call's idempotency key). */
  fraudMarkers: Record<string, { readonly request: Json; readonly answer: Json }>;
}

/** ISPB the sandbox's exchange writes in the instruction ids it makes. */
export const exchangeIspb = '99999030';

/** An empty messages sandbox; seed.ts `createMessagesState` fills it with what other participants sent and the directory keys. */
export function emptyMessagesState(env: SandboxEnvironment): MessagesState {
  const state: MessagesState = {
    epoch: env.random.text(12),
    queue: [],
    nextSequence: 1,
    sent: [],
    sentIds: {},
    owed: {},
    rejections: [],
    keys: {},
    fraudMarkers: {},
  };
  return state;
}

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 3339 in UTC with milliseconds, on the sandbox clock. */
export const instant = (env: SandboxEnvironment): string => new Date(env.clock.nowMs()).toISOString();

/** An instruction id: M, the ISPB and 23 letters or digits (32 characters). */
export const instructionId = (env: SandboxEnvironment): string => `M${exchangeIspb}${env.random.text(23)}`;

/** `E` (a payment) or `D` (a return), the ISPB, the UTC minute and 11 letters or digits (32 characters). */
export function endToEndId(env: SandboxEnvironment, prefix: 'E' | 'D', ispb: string): string {
  const stamp = env.clock.now().toISOString().replace(/[-T:]/g, '').slice(0, 12);
  return `${prefix}${/^\d{8}$/.test(ispb) ? ispb : exchangeIspb}${stamp}${env.random.text(11)}`;
}

/** A 400 of interface C naming the member at fault. */
export function refusal(detail: string, pointer: string): SandboxProblem {
  return new SandboxProblem(400, 'invalid-request', detail, [{ pointer, message: detail }]);
}

/** The names of the messages of the exchange (pacs, pain, camt, reda), without the directory's payloads. */
export const exchangeMessages: readonly string[] = Object.keys(messageTable).filter((name) => !name.startsWith('dict.'));

/** What the message's schema finds wrong with `body` (none when it is valid). */
export function schemaIssues(message: string, body: unknown): ValidationIssue[] {
  const entry = (messageTable as Record<string, { schema: string } | undefined>)[message];
  const validator = entry ? (validators.schemas as Record<string, CompiledValidator>)[entry.schema] : undefined;
  if (!validator) return [{ pointer: '', rule: 'message', message: `no message ${message}` }];
  return check(validator, body, '', patternDescriptions);
}

let codeLists: Record<string, readonly string[]> | undefined;

/** The codes a message's member admits, from the bundled spec (`pacs.002` `codigoDeErro`), empty code left out. */
export function codesOf(message: string, member: string): readonly string[] {
  const key = `${message} ${member}`;
  if (!codeLists) codeLists = {};
  if (!codeLists[key]) {
    const bundle = JSON.parse(readFileSync(bundledSpecPath('messages'), 'utf8')) as { components: { schemas: Record<string, Json> } };
    const schemaName = (messageTable as Record<string, { schema: string } | undefined>)[message]?.schema ?? '';
    const property = (bundle.components.schemas[schemaName]?.properties as Record<string, Json> | undefined)?.[member];
    codeLists[key] = Array.isArray(property?.enum) ? (property.enum as string[]).filter((code) => code !== '') : [];
  }
  return codeLists[key];
}
