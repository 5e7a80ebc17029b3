/**
 * BR Code: the EMV QR Code (Merchant-Presented Mode) payload of Pix, also the "Pix copia e cola" text.
 * Every field is ID (2 digits), length (2 digits) and value; the last field, 63, is a CRC16-CCITT
 * (polynomial 0x1021, initial 0xFFFF) of everything before its value, in uppercase hexadecimal.
 */
import { checkBrlAmount } from './values.js';
import { checkPixKey } from './pix.js';

export interface BrCodeIssue {
  /** EMV field ID ("63", "26.00" for a field inside a template). */
  readonly tag: string;
  readonly message: string;
}

export interface BrCode {
  /**
   * static: reusable, carries the Pix key; dynamic: carries the URL of a payload location; recurrence:
   * only a Pix Automático recurrence (its location in field 80, "journey 2" of the standard).
   */
  readonly kind: 'static' | 'dynamic' | 'recurrence';
  readonly payloadFormatIndicator: string;
  /** Field 01: 11 (may be paid many times), 12 (once); null when absent. */
  readonly pointOfInitiation: '11' | '12' | null;
  readonly gui: string;
  readonly key: string | null;
  readonly description: string | null;
  /** Location URL of a dynamic code, without the https:// scheme, as carried. */
  readonly url: string | null;
  /** Location of a Pix Automático recurrence (field 80.25), when the code carries one. */
  readonly recurrenceUrl: string | null;
  readonly merchantCategoryCode: string;
  readonly currency: string;
  readonly amount: string | null;
  readonly countryCode: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly postalCode: string | null;
  /** Field 62.05 of a static code; null when it is *** (no txid) or absent. */
  readonly txid: string | null;
  readonly crc: string;
}

export type BrCodeResult =
  | { readonly valid: true; readonly value: BrCode }
  | {
      readonly valid: false;
      /** The first maxBrCodeIssues problems, in the order found. */
      readonly issues: readonly BrCodeIssue[];
      /** How many further problems were found and left out of issues (0 when none were). */
      readonly omittedIssues: number;
    };

/**
 * The longest BR Code: the EMV QR Code Specification for Payment Systems, Merchant-Presented Mode (EMV
 * QRCPS-MPM, which the Central Bank's BR Code manual adopts for Pix) limits the payload to 512 characters.
 * Longer text is refused before it is read field by field.
 */
export const maxBrCodeLength = 512;

/** At most this many problems are listed for one code; a garbled text would otherwise yield hundreds. */
export const maxBrCodeIssues = 20;

/** Tag of a problem with the text as a whole rather than with one field. */
const wholePayload = 'payload';

const pixGui = 'br.gov.bcb.pix';

export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

interface Field {
  readonly id: string;
  readonly value: string;
}

/** Splits ID-length-value fields; reports the first field whose ID or length cannot be read. */
function readFields(text: string, parent: string, issues: BrCodeIssue[]): Field[] | null {
  const fields: Field[] = [];
  let position = 0;
  while (position < text.length) {
    const id = text.slice(position, position + 2);
    const length = text.slice(position + 2, position + 4);
    const tag = parent ? `${parent}.${id}` : id;
    if (!/^\d{2}$/.test(id)) {
      issues.push({
        tag: parent || wholePayload,
        message: `expected a 2-digit field ID at position ${position}, found ${JSON.stringify(id)}`,
      });
      return null;
    }
    if (!/^\d{2}$/.test(length)) {
      issues.push({ tag, message: `the length field must be 2 digits, found ${JSON.stringify(length)}` });
      return null;
    }
    const size = Number(length);
    const value = text.slice(position + 4, position + 4 + size);
    if (value.length !== size) {
      issues.push({ tag, message: `the length field says ${size} characters but only ${value.length} follow` });
      return null;
    }
    if (size === 0) issues.push({ tag, message: 'a field cannot be empty (length 00)' });
    if (fields.some((field) => field.id === id)) issues.push({ tag, message: 'the field appears twice' });
    fields.push({ id, value });
    position += 4 + size;
  }
  return fields;
}

const printable = /^[\x20-\x7E\u00A0-\u00FF]*$/;

function invalid(issues: readonly BrCodeIssue[]): BrCodeResult {
  return { valid: false, issues: issues.slice(0, maxBrCodeIssues), omittedIssues: Math.max(0, issues.length - maxBrCodeIssues) };
}

/** One line for a problem: `field 63: …`, or the message alone when it concerns the whole text. */
export function describeBrCodeIssue(issue: BrCodeIssue): string {
  return issue.tag === wholePayload ? issue.message : `field ${issue.tag}: ${issue.message}`;
}

/** The line that stands for the problems left out of a result, e.g. `… and 7 more problems`. */
export function omittedBrCodeIssues(count: number): string {
  return `… and ${count} more problem${count === 1 ? '' : 's'}`;
}

export function parseBrCode(code: string): BrCodeResult {
  if (code.length > maxBrCodeLength) {
    return invalid([
      {
        tag: wholePayload,
        message: `the text has ${code.length} characters; a BR Code has at most ${maxBrCodeLength} (EMV QR Code limit)`,
      },
    ]);
  }
  if (code.trim() === '') return invalid([{ tag: wholePayload, message: 'empty input: paste the BR Code (copia e cola) text' }]);
  const issues: BrCodeIssue[] = [];
  const fields = readFields(code, '', issues);
  if (!fields) return invalid(issues);
  const get = (id: string): string | undefined => fields.find((field) => field.id === id)?.value;
  const need = (id: string, what: string): string => {
    const value = get(id);
    if (value === undefined) issues.push({ tag: id, message: `${what} (field ${id}) is missing` });
    return value ?? '';
  };

  const last = fields.at(-1);
  if (last?.id !== '63') issues.push({ tag: '63', message: 'the CRC (field 63) must be the last field' });
  else if (!/^[0-9A-Fa-f]{4}$/.test(last.value)) issues.push({ tag: '63', message: 'the CRC is 4 hexadecimal characters' });
  else {
    const expected = crc16(code.slice(0, -4));
    if (expected !== last.value.toUpperCase())
      issues.push({ tag: '63', message: `the CRC does not match the content: expected ${expected}, found ${last.value}` });
  }

  if (fields[0]?.id !== '00' || fields[0].value !== '01')
    issues.push({ tag: '00', message: 'the code must start with the payload format indicator 000201' });
  const pointOfInitiation = get('01') ?? null;
  if (pointOfInitiation !== null && pointOfInitiation !== '11' && pointOfInitiation !== '12') {
    issues.push({ tag: '01', message: 'the point of initiation method is 11 (static) or 12 (dynamic)' });
  }

  // Pix Automático: a template 80 with the Pix GUI carries the recurrence location in its field 25.
  let recurrenceUrl: string | null = null;
  const recurrence = get('80');
  if (recurrence !== undefined) {
    const inner = readFields(recurrence, '80', issues) ?? [];
    const guiOf80 = inner.find((field) => field.id === '00')?.value ?? '';
    if (guiOf80.toLowerCase() === pixGui) {
      recurrenceUrl = inner.find((field) => field.id === '25')?.value ?? null;
      if (recurrenceUrl === null) issues.push({ tag: '80.25', message: 'the recurrence template has no location URL (25)' });
    }
  }

  let gui = '';
  let key: string | null = null;
  let description: string | null = null;
  let url: string | null = null;
  const merchantAccount =
    fields.find((field) => Number(field.id) >= 26 && Number(field.id) <= 51 && field.value.toLowerCase().includes(pixGui)) ??
    fields.find((field) => field.id === '26');
  if (!merchantAccount) issues.push({ tag: '26', message: 'the merchant account information with the br.gov.bcb.pix GUI is missing' });
  else {
    const inner = readFields(merchantAccount.value, merchantAccount.id, issues) ?? [];
    const sub = (id: string): string | null => inner.find((field) => field.id === id)?.value ?? null;
    gui = sub('00') ?? '';
    if (gui.toLowerCase() !== pixGui)
      issues.push({ tag: `${merchantAccount.id}.00`, message: `the GUI must be ${pixGui}, found ${JSON.stringify(gui)}` });
    key = sub('01');
    description = sub('02');
    url = sub('25');
    if (key !== null && url !== null)
      issues.push({ tag: merchantAccount.id, message: 'a code carries either a Pix key (static) or a location URL (dynamic), not both' });
    if (key === null && url === null && recurrenceUrl === null) {
      issues.push({
        tag: merchantAccount.id,
        message: 'neither a Pix key (01), a location URL (25) nor a recurrence location (80.25) is present',
      });
    }
    if (key !== null) {
      const keyCheck = checkPixKey(key);
      if (!keyCheck.valid) issues.push({ tag: `${merchantAccount.id}.01`, message: keyCheck.reason });
    }
    if (url !== null && /^https?:\/\//i.test(url))
      issues.push({ tag: `${merchantAccount.id}.25`, message: 'the location URL is carried without its https:// scheme' });
  }
  const kind: BrCode['kind'] = url !== null ? 'dynamic' : key !== null ? 'static' : 'recurrence';

  const merchantCategoryCode = need('52', 'the merchant category code');
  if (merchantCategoryCode && !/^\d{4}$/.test(merchantCategoryCode))
    issues.push({ tag: '52', message: 'the merchant category code is 4 digits' });
  const currency = need('53', 'the currency');
  if (currency && currency !== '986') issues.push({ tag: '53', message: `the currency must be 986 (BRL), found ${currency}` });
  const amount = get('54') ?? null;
  if (amount !== null && !/^\d{1,10}(?:\.\d{1,2})?$/.test(amount)) {
    issues.push({
      tag: '54',
      message: `the amount is digits with an optional point and up to 2 decimals, e.g. 10.50; found ${JSON.stringify(amount)}`,
    });
  }
  const countryCode = need('58', 'the country code');
  if (countryCode && countryCode !== 'BR') issues.push({ tag: '58', message: `the country code must be BR, found ${countryCode}` });
  const merchantName = need('59', 'the merchant name');
  if (merchantName.length > 25)
    issues.push({ tag: '59', message: `the merchant name has at most 25 characters, found ${merchantName.length}` });
  const merchantCity = need('60', 'the merchant city');
  if (merchantCity.length > 15)
    issues.push({ tag: '60', message: `the merchant city has at most 15 characters, found ${merchantCity.length}` });
  for (const [tag, text] of [
    ['59', merchantName],
    ['60', merchantCity],
  ] as const) {
    if (!printable.test(text)) issues.push({ tag, message: 'only printable characters are allowed' });
  }

  let txid: string | null = null;
  const additional = get('62');
  if (additional === undefined)
    issues.push({ tag: '62', message: 'the additional data field (62) with the reference label (05) is missing' });
  else {
    const inner = readFields(additional, '62', issues) ?? [];
    const label = inner.find((field) => field.id === '05')?.value;
    if (label === undefined) issues.push({ tag: '62.05', message: 'the reference label (txid, or *** when there is none) is missing' });
    else if (label !== '***') {
      if (kind === 'static' && !/^[a-zA-Z0-9]{1,25}$/.test(label)) {
        issues.push({ tag: '62.05', message: 'the txid of a static code is 1 to 25 letters or digits, or ***' });
      }
      txid = label;
    }
  }

  if (issues.length > 0) return invalid(issues);
  return {
    valid: true,
    value: {
      kind,
      payloadFormatIndicator: '01',
      pointOfInitiation: pointOfInitiation as BrCode['pointOfInitiation'],
      gui,
      key,
      description,
      url,
      recurrenceUrl,
      merchantCategoryCode,
      currency,
      amount,
      countryCode,
      merchantName,
      merchantCity,
      postalCode: get('61') ?? null,
      txid,
      crc: last!.value.toUpperCase(),
    },
  };
}

interface CommonOptions {
  readonly merchantName: string;
  readonly merchantCity: string;
  /** Up to 10 digits, a point and 2 decimals ("10.50"). Omitted: the payer types the amount. */
  readonly amount?: string;
  readonly postalCode?: string;
  /** Merchant category code; default 0000 (not informed). */
  readonly merchantCategoryCode?: string;
}

export interface StaticBrCodeOptions extends CommonOptions {
  readonly key: string;
  /** 1 to 25 letters or digits; omitted: ***. */
  readonly txid?: string;
  /** Message to the payer (field 26.02). */
  readonly description?: string;
}

export interface DynamicBrCodeOptions extends CommonOptions {
  /** Payload location URL (with or without https://, carried without it). */
  readonly url: string;
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** A static (key) or dynamic (location URL) BR Code with its CRC. Throws RangeError on invalid input. */
export function buildBrCode(options: StaticBrCodeOptions | DynamicBrCodeOptions): string {
  const problems: string[] = [];
  const dynamic = 'url' in options;
  if (!dynamic) {
    const key = checkPixKey(options.key);
    if (!key.valid) problems.push(`key: ${key.reason}`);
    if (options.txid !== undefined && !/^[a-zA-Z0-9]{1,25}$/.test(options.txid)) problems.push('txid: 1 to 25 letters or digits');
  }
  if (options.amount !== undefined && !checkBrlAmount(options.amount).valid)
    problems.push('amount: up to 10 digits, a point and 2 decimals');
  if (options.merchantName.length < 1 || options.merchantName.length > 25) problems.push('merchantName: 1 to 25 characters');
  if (options.merchantCity.length < 1 || options.merchantCity.length > 15) problems.push('merchantCity: 1 to 15 characters');
  if (problems.length > 0) throw new RangeError(`cannot build a BR Code: ${problems.join('; ')}`);

  const account = dynamic
    ? field('00', pixGui) + field('25', options.url.replace(/^https:\/\//i, ''))
    : field('00', pixGui) + field('01', options.key) + (options.description ? field('02', options.description) : '');
  const body =
    field('00', '01') +
    (dynamic ? field('01', '12') : '') +
    field('26', account) +
    field('52', options.merchantCategoryCode ?? '0000') +
    field('53', '986') +
    (options.amount !== undefined ? field('54', options.amount) : '') +
    field('58', 'BR') +
    field('59', options.merchantName) +
    field('60', options.merchantCity) +
    (options.postalCode ? field('61', options.postalCode) : '') +
    field('62', field('05', dynamic ? '***' : (options.txid ?? '***'))) +
    '6304';
  const code = body + crc16(body);
  // Unreachable while every field holds at most 99 characters (about 350 in all); kept so a new field cannot pass the limit unnoticed.
  if (code.length > maxBrCodeLength)
    throw new RangeError(`cannot build a BR Code: it would have ${code.length} characters, more than ${maxBrCodeLength}`);
  return code;
}

/** Format check for `brCode` / `pixCopiaECola` fields. */
export function checkBrCode(value: string): { valid: true } | { valid: false; reason: string } {
  const result = parseBrCode(value);
  if (result.valid) return { valid: true };
  const lines = result.issues.map(describeBrCodeIssue);
  if (result.omittedIssues > 0) lines.push(omittedBrCodeIssues(result.omittedIssues));
  return { valid: false, reason: lines.join('; ') };
}
