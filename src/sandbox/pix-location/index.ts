/**
 * The sandbox of the Pix payload locations (generated/pix-location): the address a dynamic QR code points
 * to, read by a payer's app without a token. The Pix module links its charges to locations
 * `<host>/pix-location/<token>` and `<host>/pix-location/cobv/<token>` (src/sandbox/pix/locations.ts); this
 * module answers them with the linked charge, as a compact JWS (`application/jose`, as the spec declares)
 * signed PS256 with the sandbox PSP's key (signing.ts). The payload is a CobPayload, a CobVPayload with
 * its amounts computed for the date of payment (amounts.ts), or a RecPayload; which charge is served and
 * which is refused is in payloads.ts.
 *
 * The spec has no JWK Set route, so the header names the key by `kid` only, and the public key is read
 * through the control verb `jwks` (POST /_sandbox/pix-location/jwks → `{ keys: [ … ] }`).
 */
import { defineSandboxModule, type Handler, type ProblemFormat, type SandboxAnswer } from '../contract.js';
import { pixProblems } from '../pix/problems.js';
import type { PixState } from '../pix/state.js';
import { cobPayload, cobvPayload, linkedCharge, type RecurrenceHolding, recPayload } from './payloads.js';
import { createSigningKey, jwkSet, type SigningKey, signJws } from './signing.js';
import { declareVerb } from '../verb-contract.js';

export interface PixLocationState {
  /** The key the sandbox PSP signs payloads with (a private JWK, made anew by a reset). */
  readonly signingKey: SigningKey;
}

/** Media type of a compact JWS (RFC 7515 9.2.1), the one the spec declares for the 200 of every location. */
export const jwsMediaType = 'application/jose';

const signed = (state: PixLocationState, payload: unknown): SandboxAnswer => ({
  status: 200,
  body: signJws(state.signingKey, payload),
  contentType: jwsMediaType,
  // A payload is made for the moment it is read (calendario.apresentacao): never reuse one.
  headers: { 'cache-control': 'no-store' },
});

const handlers: Record<string, Handler<PixLocationState>> = {
  'cobPayload.get': (request, state, env) =>
    signed(state, cobPayload(linkedCharge(env.stateOf<PixState>('pix'), request.path.pixUrlAccessToken!, 'cob'), env)),
  'cobvPayload.get': (request, state, env) =>
    signed(state, cobvPayload(linkedCharge(env.stateOf<PixState>('pix'), request.path.pixUrlAccessToken!, 'cobv'), env, request.query)),
  'rec.getPayload': (request, state, env) =>
    signed(state, recPayload(env.stateOf<PixState & RecurrenceHolding>('pix'), request.path.recUrlAccessToken!)),
};

/** Titles of the location error types (the rest as the Pix module words them). */
const titles: Readonly<Record<string, string>> = {
  CobPayloadNaoEncontrado: 'Cobrança não encontrada para a location.',
  CobPayloadOperacaoInvalida: 'Requisição de payload inválida.',
  RecPayloadNaoEncontrado: 'Recorrência não encontrada para a location.',
  RecPayloadOperacaoInvalida: 'Recorrência não pode ser exibida.',
};

function retitled(answer: SandboxAnswer): SandboxAnswer {
  const body = answer.body as Record<string, unknown>;
  const type = typeof body?.type === 'string' ? body.type.split('/').pop()! : '';
  const title = titles[type];
  return title ? { ...answer, body: { ...body, title } } : answer;
}

/** Interface B's problems (section 7.2): the Pix module's format, with the location types titled. */
const locationProblems: ProblemFormat = {
  ...pixProblems,
  problem: (problem, context) => retitled(pixProblems.problem(problem, context)),
  invalid: (issues, context) => retitled(pixProblems.invalid(issues, context)),
};

export const pixLocationSandbox = defineSandboxModule<PixLocationState>({
  document: 'pix-location',
  prefix: '/pix-location',
  createState: () => ({ signingKey: createSigningKey() }),
  problems: locationProblems,
  handlers,
  controls: {
    jwks: declareVerb({ document: 'pix-location' }, (_body, state) => jwkSet(state.signingKey)),
  },
});
