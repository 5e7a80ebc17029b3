/**
 * The key directory (DICT) of interface C, held in state (section 2.12). The answers' bodies are not shown
 * by the specification (open objects): the sandbox answers with the key's entry in the request's own
 * member names, plus `CreationDate` and `UpdateDate`. Its readings where the specification is silent:
 * - create: an EVP key is generated (a UUID); a CPF or CNPJ key is the holder's document (Key, when sent,
 *   must equal TaxIdNumber); PHONE and EMAIL need their Key; a key already in the directory is a 400;
 *   Type and TaxIdNumber must agree (NATURAL_PERSON a CPF, LEGAL_PERSON a CNPJ);
 * - update: the members sent replace the entry's; an unknown key is a 400 (the operation declares no 404);
 * - list: pages counted from 1; `Filter` matches part of the key (its syntax is not shown), InitialDate and
 *   FinalDate bound the creation date; QueryFilter and ExportCSV, whose forms are not shown, are ignored;
 * - QR code lookup: the BR Code read; a static one answers the directory entry of its key (400 when the
 *   key is not in the directory), a dynamic one its payload URL, which the payer's app reads itself;
 * - fraud markers: RequestId is the idempotency key: the same RequestId and body answer the same marker.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseBrCode } from '../../formats/brcode.js';
import type { Handler } from '../contract.js';
import { instant, type Json, type MessagesState, refusal } from './state.js';

function checkHolder(entry: Json, pointer: string): void {
  const document = String(entry.TaxIdNumber);
  const natural = document.length === 11;
  if ((entry.Type === 'NATURAL_PERSON') !== natural)
    throw refusal(
      `a ${String(entry.Type)} holder has a ${entry.Type === 'NATURAL_PERSON' ? 'CPF (11 digits)' : 'CNPJ (14 characters)'}`,
      pointer,
    );
  if ((entry.KeyType === 'CPF' || entry.KeyType === 'CNPJ') && entry.Key !== document)
    throw refusal(`a ${String(entry.KeyType)} key is the holder's document: it must equal TaxIdNumber`, pointer);
  if ((entry.KeyType === 'CPF' && !natural) || (entry.KeyType === 'CNPJ' && natural))
    throw refusal(`a ${String(entry.KeyType)} key needs a ${entry.KeyType === 'CPF' ? 'CPF' : 'CNPJ'} as TaxIdNumber`, pointer);
}

function stored(state: MessagesState, key: string): Json {
  const entry = state.keys[key];
  if (!entry) throw refusal(`the key ${key} is not in the directory`, '/path/key');
  return entry;
}

const inRange = (at: unknown, from: unknown, to: unknown): boolean => {
  const time = Date.parse(String(at));
  return (typeof from !== 'string' || time >= Date.parse(from)) && (typeof to !== 'string' || time <= Date.parse(to));
};

export const directoryHandlers: Record<string, Handler<MessagesState>> = {
  'dictKeys.create': (request, state, env) => {
    const { Reason: _reason, Key: given, ...data } = request.body as Json;
    const type = data.KeyType as string;
    let key = given as string | undefined;
    if (type === 'EVP') key = env.random.uuid();
    else if (type === 'CPF' || type === 'CNPJ') key ??= data.TaxIdNumber as string;
    else if (key === undefined) throw refusal(`a ${type} key needs its Key`, '/body/Key');
    if (state.keys[key!]) throw refusal(`the key ${key} is already in the directory`, '/body/Key');
    const now = instant(env);
    const entry: Json = { Key: key, ...data, CreationDate: now, UpdateDate: now };
    checkHolder(entry, given === undefined ? '/body/TaxIdNumber' : '/body/Key');
    state.keys[key!] = entry;
    return { status: 200, body: entry };
  },
  'dictKeys.update': (request, state, env) => {
    const key = request.path.key!;
    const { Reason: _reason, ...changes } = request.body as Json;
    const entry: Json = { ...stored(state, key), ...changes, UpdateDate: instant(env) };
    checkHolder(entry, '/body/TaxIdNumber');
    state.keys[key] = entry;
    return { status: 200, body: entry };
  },
  'dictKeys.list': (request, state) => {
    const query = request.body as Json;
    const page = (query.Page as number | undefined) ?? 1;
    const perPage = (query.PerPage as number | undefined) ?? 10;
    const filter = typeof query.Filter === 'string' ? query.Filter.toLowerCase() : '';
    const matching = Object.values(state.keys).filter(
      (entry) => String(entry.Key).toLowerCase().includes(filter) && inRange(entry.CreationDate, query.InitialDate, query.FinalDate),
    );
    return {
      status: 200,
      body: {
        Keys: matching.slice((page - 1) * perPage, page * perPage),
        Page: page,
        PerPage: perPage,
        TotalItems: matching.length,
        TotalPages: Math.ceil(matching.length / perPage),
      },
    };
  },
  'dictKeys.checkExistence': (request, state) => {
    const { Keys } = request.body as { Keys: { Key: string }[] };
    return { status: 200, body: { Keys: Keys.map(({ Key }) => ({ Key, HasEntry: state.keys[Key] !== undefined })) } };
  },
  'dictQrCode.lookup': (request, state) => {
    const body = request.body as Json;
    const parsed = parseBrCode(String(body.brCode));
    if (!parsed.valid)
      throw refusal(`the BR Code does not parse: ${parsed.issues.map((issue) => issue.message).join('; ')}`, '/body/brCode');
    const code = parsed.value;
    const read: Json = {
      Type: code.kind.toUpperCase(),
      MerchantName: code.merchantName,
      MerchantCity: code.merchantCity,
      CodMun: body.codMun,
      ...(code.amount === null ? {} : { Amount: code.amount }),
      ...(code.txid === null ? {} : { Txid: code.txid }),
      ...(typeof body.DPP === 'string' ? { DPP: body.DPP } : {}),
    };
    if (code.kind === 'static') {
      const entry = code.key === null ? undefined : state.keys[code.key];
      if (!entry) throw refusal(`the key ${String(code.key)} of the BR Code is not in the directory`, '/body/brCode');
      return { status: 200, body: { ...read, Key: code.key, Entry: entry } };
    }
    return { status: 200, body: { ...read, Url: code.url ?? code.recurrenceUrl } };
  },
  'dictFraudMarkers.create': (request, state, env) => {
    const body = request.body as Json;
    const requestId = body.RequestId as string;
    const marker = body.FraudMarker as Json;
    const earlier = state.fraudMarkers[requestId];
    if (earlier) {
      if (isDeepStrictEqual(earlier.request, body)) return { status: 200, body: earlier.answer };
      throw refusal(`the RequestId ${requestId} was used already for another fraud marker`, '/body/RequestId');
    }
    if (marker.TaxIdNumber === undefined && marker.Key === undefined)
      throw refusal('a fraud marker marks a TaxIdNumber, a Key, or both', '/body/FraudMarker');
    const answer: Json = { Id: env.random.uuid(), RequestId: requestId, FraudMarker: marker, CreationDate: instant(env) };
    state.fraudMarkers[requestId] = { request: body, answer };
    return { status: 200, body: answer };
  },
};
