/**
 * Payload locations (loc): created with a charge or on their own (POST /loc), linked to at most one charge
 * of their type, unlinked by DELETE /loc/{id}/txid. The location is the sandbox's own address of the
 * payload a payer's app would read (host and path, without the scheme, as the standard writes it).
 */
import { type Handler, type SandboxEnvironment, SandboxProblem, type SandboxRequest } from '../contract.js';
import { instant, type Json, page, type PixState, within } from './state.js';

const notFound = (id: string): never => {
  throw new SandboxProblem(404, 'PayloadLocationNaoEncontrado', `no payload location has the id ${id}`, [
    { pointer: '/id', message: 'unknown location', value: id },
  ]);
};

/** The address of a location token on the sandbox: `127.0.0.1:4010/pix-location/<token>` (cobv: `.../cobv/<token>`). */
function locationAddress(request: Pick<SandboxRequest, 'baseUrl'>, tipoCob: string, token: string): string {
  const host = request.baseUrl.replace(/^https?:\/\//, '').replace(/\/pix$/, '');
  return `${host}/pix-location${tipoCob === 'cobv' ? '/cobv' : ''}/${token}`;
}

/** Stores the location `id` with its access `token`; the seed gives both, as the spec's examples name them. */
export function addLocation(
  state: PixState,
  place: { readonly id: number; readonly tipoCob: string; readonly token: string },
  request: Pick<SandboxRequest, 'baseUrl'>,
  env: SandboxEnvironment,
): Json {
  const { id, tipoCob, token } = place;
  const location: Json = { id, location: locationAddress(request, tipoCob, token), tipoCob, criacao: instant(env), token };
  state.locations[String(id)] = location;
  state.nextLocationId = Math.max(state.nextLocationId, id + 1);
  return location;
}

function makeLocation(state: PixState, tipoCob: string, request: Pick<SandboxRequest, 'baseUrl'>, env: SandboxEnvironment): Json {
  return addLocation(state, { id: state.nextLocationId, tipoCob, token: env.random.uuid().replace(/-/g, '') }, request, env);
}

/** What a charge shows of its location (the token stays inside the sandbox). */
const shown = ({ token: _token, txid: _txid, ...location }: Json): Json => location;

export function newLocation(
  state: PixState,
  kind: string,
  txid: string,
  request: Pick<SandboxRequest, 'baseUrl'>,
  env: SandboxEnvironment,
): Json {
  const location = makeLocation(state, kind, request, env);
  location.txid = txid;
  state.locationTokens[location.token as string] = txid;
  return shown(location);
}

/** Links location `id` to the charge; `refuse` names why it cannot be (unknown, in use, of the other type). */
export function linkLocation(
  state: PixState,
  kind: string,
  txid: string,
  id: number,
  refuse: (detail: string, value: unknown) => never,
): Json {
  const location = state.locations[String(id)];
  if (!location) return refuse(`no payload location has the id ${id}`, id);
  if (location.txid !== undefined && location.txid !== txid)
    return refuse(`the location ${id} is linked to the charge ${String(location.txid)}`, id);
  if (location.tipoCob !== kind) return refuse(`the location ${id} is of type ${String(location.tipoCob)}, not ${kind}`, id);
  location.txid = txid;
  state.locationTokens[location.token as string] = txid;
  return shown(location);
}

export function unlinkLocation(state: PixState, id: string): void {
  const location = state.locations[id];
  if (!location) return;
  delete location.txid;
  delete state.locationTokens[location.token as string];
}

const view = (location: Json): Json => (location.txid === undefined ? shown(location) : { ...shown(location), txid: location.txid });

export const locationHandlers: Record<string, Handler<PixState>> = {
  'loc.create': (request, state, env) => {
    const { tipoCob } = request.body as Json;
    return { status: 201, body: view(makeLocation(state, String(tipoCob), request, env)) };
  },
  'loc.get': (request, state) => ({ status: 200, body: view(state.locations[request.path.id!] ?? notFound(request.path.id!)) }),
  'loc.revise': (request, state) => ({ status: 200, body: view(state.locations[request.path.id!] ?? notFound(request.path.id!)) }),
  'loc.unlinkTxid': (request, state) => {
    const location = state.locations[request.path.id!] ?? notFound(request.path.id!);
    const txid = location.txid;
    if (typeof txid === 'string') {
      const charge = state.charges[txid];
      if (charge) {
        delete charge.current.loc;
        delete charge.current.location;
        delete charge.current.pixCopiaECola;
      }
    }
    unlinkLocation(state, request.path.id!);
    return { status: 200, body: view(location) };
  },
  'loc.list': (request, state) => {
    const { query } = request;
    const matching = Object.values(state.locations).filter(
      (location) =>
        within(location.criacao, query) &&
        (query.tipoCob === undefined || location.tipoCob === query.tipoCob) &&
        (query.txIdPresente === undefined || (location.txid !== undefined) === query.txIdPresente),
    );
    const { items, paginacao } = page(matching, query);
    return { status: 200, body: { parametros: { inicio: query.inicio, fim: query.fim, paginacao }, loc: items.map(view) } };
  },
};
