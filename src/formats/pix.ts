/**
 * Identifiers of the Pix ecosystem (section 2.11 and design.md) and Pix keys. Generators use
 * crypto-quality randomness so two generated ids never collide in practice.
 */
import { randomInt } from 'node:crypto';
import { checkCnpj, checkCpf } from './documents.js';
import { invalid, valid, type FormatResult } from './result.js';

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomAlphanumerics(length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphanumerics[randomInt(alphanumerics.length)];
  return text;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** yyyyMMdd[HHmm] of a real UTC calendar instant. */
function isRealInstant(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const hour = text.length >= 10 ? Number(text.slice(8, 10)) : 0;
  const minute = text.length >= 12 ? Number(text.slice(10, 12)) : 0;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute
  );
}

/**
 * An ISPB as it sits inside an end-to-end id or an idRec, where section 2.11 and the resolved patterns give
 * 8 digits. The API Pix's own ISPB members (ispbParticipante, prestadorDoServicoDeSaque) follow the
 * standard's `^[0-9A-Z]{8}$` instead, written as a pattern in specs/pix, not with this format.
 */
export function checkIspb(value: string): FormatResult {
  return /^\d{8}$/.test(value) ? valid : invalid('an ISPB is 8 digits');
}

export function checkTxid(value: string): FormatResult {
  return /^[a-zA-Z0-9]{26,35}$/.test(value) ? valid : invalid('a txid is 26 to 35 letters or digits');
}

/** A new txid: 32 random letters and digits (within the 26 to 35 the standard allows). */
export function generateTxid(length = 32): string {
  if (!Number.isInteger(length) || length < 26 || length > 35) throw new RangeError('a txid has 26 to 35 characters');
  return randomAlphanumerics(length);
}

export function checkEndToEndId(value: string): FormatResult {
  if (value.length !== 32) return invalid('an end-to-end id is 32 characters');
  if (!/^[ED]/.test(value)) return invalid('an end-to-end id starts with E or D');
  if (!/^[ED]\d{8}\d{12}[a-zA-Z0-9]{11}$/.test(value)) {
    return invalid('an end-to-end id is E or D, the 8-digit ISPB, yyyyMMddHHmm and 11 letters or digits');
  }
  if (!isRealInstant(value.slice(9, 21))) return invalid('the yyyyMMddHHmm part of the end-to-end id is not a real UTC date and time');
  return valid;
}

export interface EndToEndIdOptions {
  /** ISPB of the participant that creates the id. */
  readonly ispb: string;
  /** Instant of creation (UTC minutes are used). Default: now. */
  readonly at?: Date;
  /** E for most ids, D for the ones the scheme reserves that letter for. Default E. */
  readonly prefix?: 'E' | 'D';
}

export function generateEndToEndId(options: EndToEndIdOptions): string {
  if (!checkIspb(options.ispb).valid) throw new RangeError('ispb must be 8 digits');
  const at = options.at ?? new Date();
  const stamp = `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}${pad(at.getUTCHours(), 2)}${pad(at.getUTCMinutes(), 2)}`;
  return `${options.prefix ?? 'E'}${options.ispb}${stamp}${randomAlphanumerics(11)}`;
}

export function checkIdRec(value: string): FormatResult {
  if (value.length !== 29) return invalid('an idRec is 29 characters');
  if (!/^R[RN]/.test(value)) return invalid('an idRec starts with RR (retries allowed after the due date) or RN (not allowed)');
  if (!/^R[RN]\d{8}\d{8}[a-zA-Z0-9]{11}$/.test(value)) {
    return invalid('an idRec is R, R or N, the 8-digit agent id, yyyyMMdd and 11 letters or digits');
  }
  if (!isRealInstant(value.slice(10, 18))) return invalid('the yyyyMMdd part of the idRec is not a real date');
  return valid;
}

export interface IdRecOptions {
  /** 8-digit identifier of the agent that creates the recurrence. */
  readonly agentId: string;
  /** Whether the recurrence allows retries after the due date (RR) or not (RN). */
  readonly allowsRetries: boolean;
  readonly at?: Date;
}

export function generateIdRec(options: IdRecOptions): string {
  if (!/^\d{8}$/.test(options.agentId)) throw new RangeError('agentId must be 8 digits');
  const at = options.at ?? new Date();
  const date = `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}`;
  return `R${options.allowsRetries ? 'R' : 'N'}${options.agentId}${date}${randomAlphanumerics(11)}`;
}

const evpPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkEvp(value: string): FormatResult {
  if (evpPattern.test(value)) return valid;
  if (evpPattern.test(value.toLowerCase())) return invalid('a random key (EVP) is a UUID in lowercase');
  return invalid('a random key (EVP) is a UUID: 8-4-4-4-12 hexadecimal digits');
}

export function checkPhone(value: string): FormatResult {
  return /^\+[1-9]\d{1,14}$/.test(value) ? valid : invalid('a phone is in E.164 form: + then the country code and number, up to 15 digits');
}

const emailLocal = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+$/;
const emailLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function checkPixEmail(value: string): FormatResult {
  if (value.length > 77) return invalid('an e-mail key has at most 77 characters');
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (at <= 0 || !emailLocal.test(local) || labels.length < 2 || !labels.every((label) => emailLabel.test(label))) {
    return /[A-Z]/.test(value) ? invalid('an e-mail key is written in lowercase') : invalid('not an e-mail address');
  }
  return valid;
}

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
export const pixKeyTypes: readonly PixKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'];

/** The type a key is written as, or null when it is none of them. Checks the form, not the check digits. */
export function detectPixKeyType(key: string): PixKeyType | null {
  if (evpPattern.test(key)) return 'EVP';
  if (key.startsWith('+')) return 'PHONE';
  if (key.includes('@')) return 'EMAIL';
  if (/^\d{11}$/.test(key)) return 'CPF';
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) return 'CNPJ';
  return null;
}

const keyCheckers: Record<PixKeyType, (key: string) => FormatResult> = {
  CPF: checkCpf,
  CNPJ: checkCnpj,
  EMAIL: checkPixEmail,
  PHONE: checkPhone,
  EVP: checkEvp,
};

/** Validates a key against its declared type, or against the type its form shows when none is given. */
export function checkPixKey(key: string, type?: PixKeyType): FormatResult {
  if (key.length > 77) return invalid('a Pix key has at most 77 characters');
  const declared = type ?? detectPixKeyType(key);
  if (!declared) return invalid('not a Pix key: expected a CPF, CNPJ, e-mail, +phone or random key (EVP)');
  const result = keyCheckers[declared](key);
  return result.valid ? valid : invalid(`${declared} key: ${result.reason}`);
}
