/**
 * Recurrence payload locations (locrec): created on their own (POST /locrec), linked to at most one
 * recurrence by the `loc` of POST or PATCH /rec, detached by DELETE /locrec/{id}/idRec (the recurrence's
 * status does not change). The location is the sandbox's own address of the RecPayload a payer's app reads
 * (`<host>/pix-location/rec/<token>`, without the scheme, as the standard writes it).
 */
import type { Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import { convenioOf, isRecord, listParameters, unknown } from './recurrence-support.js';
import { instant, type Json, page, type PixState, within } from './state.js';

const notFound = (id: string): never => unknown('PayloadLocationRecNaoEncontrado', `no recurrence location has the id ${id}`, 'id', id);

/** What a location shows (the token stays inside the sandbox); `withIdRec` adds the recurrence linked. */
export function recLocationView(location: Json, withIdRec = true): Json {
  const { token: _token, idRec, ...shown } = location;
  return withIdRec && idRec !== undefined ? { ...shown, idRec } : shown;
}

/** Links location `id` to the recurrence `idRec`; `refuse` says why it cannot be (unknown, linked elsewhere). */
export function linkRecLocation(state: PixState, id: unknown, idRec: string, refuse: (detail: string) => never): Json {
  const location = state.recLocations[String(id)];
  if (!location) return refuse(`no recurrence location has the id ${String(id)}`);
  if (location.idRec !== undefined && location.idRec !== idRec)
    return refuse(`the recurrence location ${String(id)} is linked to the recurrence ${String(location.idRec)}`);
  location.idRec = idRec;
  state.recLocationTokens[location.token as string] = idRec;
  return recLocationView(location);
}

/** Detaches the location `id` from its recurrence, on both sides. */
export function unlinkRecLocation(state: PixState, id: unknown): void {
  const location = state.recLocations[String(id)];
  if (!location) return;
  const recurrence = typeof location.idRec === 'string' ? state.recurrences[location.idRec] : undefined;
  if (recurrence && isRecord(recurrence.loc) && String(recurrence.loc.id) === String(id)) delete recurrence.loc;
  delete location.idRec;
  delete state.recLocationTokens[location.token as string];
}

/** Stores the recurrence location `id` with its access `token`; the seed gives both, as the spec's examples name them. */
export function addRecLocation(
  state: PixState,
  place: { readonly id: number; readonly token: string },
  request: Pick<SandboxRequest, 'baseUrl'>,
  env: SandboxEnvironment,
): Json {
  const { id, token } = place;
  const host = request.baseUrl.replace(/^https?:\/\//, '').replace(/\/pix$/, '');
  const location: Json = { id, location: `${host}/pix-location/rec/${token}`, tipo: 'rec', criacao: instant(env), token };
  state.recLocations[String(id)] = location;
  state.nextRecLocationId = Math.max(state.nextRecLocationId, id + 1);
  return location;
}

function makeLocation(state: PixState, request: SandboxRequest, env: SandboxEnvironment): Json {
  return addRecLocation(state, { id: state.nextRecLocationId, token: env.random.uuid().replace(/-/g, '') }, request, env);
}

export const recLocationHandlers: Record<string, Handler<PixState>> = {
  'locrec.create': (request, state, env) => {
    const location = makeLocation(state, request, env);
    return { status: 201, body: recLocationView(location, false), headers: { location: String(location.location) } };
  },
  'locrec.get': (request, state) => ({
    status: 200,
    body: recLocationView(state.recLocations[request.path.id!] ?? notFound(request.path.id!)),
  }),
  'locrec.unlinkIdRec': (request, state) => {
    const location = state.recLocations[request.path.id!] ?? notFound(request.path.id!);
    unlinkRecLocation(state, request.path.id);
    return { status: 200, body: recLocationView(location) };
  },
  'locrec.list': (request, state) => {
    const { query } = request;
    const matching = Object.values(state.recLocations).filter((location) => {
      const recurrence = typeof location.idRec === 'string' ? state.recurrences[location.idRec] : undefined;
      return (
        within(location.criacao, query) &&
        (query.idRecPresente === undefined || (location.idRec !== undefined) === query.idRecPresente) &&
        (query.convenio === undefined || convenioOf(recurrence) === query.convenio)
      );
    });
    const { items, paginacao } = page(matching, query);
    const parametros = listParameters(request, 'PayloadLocationRecConsultadas/parametros', paginacao);
    return { status: 200, body: { parametros, loc: items.map((location) => recLocationView(location)) } };
  },
};
