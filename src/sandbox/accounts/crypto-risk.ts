/**
 * Crypto-wallet risk analysis (sections 2.10, 3 and 4.7). The first POST for a wallet starts the ingest of
 * its history (202, no analysis id): RUNNING, then IDLE with `persisted` (the transactions stored; 0 is an
 * empty index) `ingestSeconds` of sandbox time later. A POST while that ingest runs is 202 again; while
 * another wallet's ingest of the account runs, 409. Once ingested, each POST closes a snapshot (201):
 * risk score, confidence, historyCovered and events derived from the address, an empty ingest giving risk 0
 * with LOW confidence and historyCovered false. Networks other than ETHEREUM and TRON are 422 (access.ts).
 */
import type { Handler, TaskRunner } from '../contract.js';
import { accountOf, notFound, refuse } from './access.js';
import { type AccountsState, instant, type Json, limitPage, next, later } from './state.js';

/** Sandbox seconds an ingest of a wallet's history takes. */
export const ingestSeconds = 20;

/** A stable number of an address (FNV-1a), so the same wallet always has the same history. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (const character of text) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

/** Transactions in the wallet's history: none for one address in five (an empty index, not a clean wallet). */
export const historySize = (address: string): number => (hashOf(address) % 5 === 0 ? 0 : (hashOf(address) % 397) + 3);

const categories = ['EXCHANGE', 'DEFI', 'GAMBLING', 'MIXER', 'P2P', 'MERCHANT'];

function snapshot(id: string, network: string, address: string, persisted: number, createdAt: string): Json {
  const hash = hashOf(address);
  const covered = persisted > 0;
  const events = Array.from({ length: Math.min(persisted, 4) }, (_, index) => ({
    category: categories[(hash >>> (index * 3)) % categories.length],
    direction: (hash >>> index) % 2 === 0 ? 'IN' : 'OUT',
    occurredAt: new Date(Date.parse(createdAt) - (index + 1) * ((hash % 90) + 7) * 86_400_000).toISOString(),
  }));
  return {
    id,
    network,
    address,
    riskScore: covered ? (hash % 1000) / 10 : 0,
    confidence: !covered ? 'LOW' : persisted < 50 ? 'MEDIUM' : 'HIGH',
    historyCovered: covered,
    createdAt,
    events,
  };
}

const summary = ({ events: _events, ...rest }: Json): Json => rest;

export const cryptoRiskHandlers: Record<string, Handler<AccountsState>> = {
  'cryptoRiskAnalyses.create': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { network, address } = request.body as { network: string; address: string };
    const key = `${account.id}:${network}:${address}`;
    const ingest = state.ingests[key];
    if (ingest?.status === 'IDLE' && ingest.persisted !== null) {
      const analysis = snapshot(String(next(state, 'analysis', 88_001)), network, address, ingest.persisted, instant(env));
      state.analyses.push({ accountId: account.id, record: analysis });
      return { status: 201, body: { data: analysis } };
    }
    if (ingest?.status === 'RUNNING') return { status: 202, body: {} };
    const running = Object.entries(state.ingests).find(
      ([other, entry]) => other.startsWith(`${account.id}:`) && entry.status === 'RUNNING',
    );
    if (running)
      refuse(
        409,
        'conflict',
        `the ingest of another wallet (${running[0].split(':').slice(1).join(' ')}) is running; send this one when it is IDLE`,
      );
    const started = { status: 'RUNNING' as const, persisted: null };
    state.ingests[key] = started;
    later(env, env.clock.nowMs() + ingestSeconds * 1000, 'finishIngest', { key, address });
    return { status: 202, body: {} };
  },
  'cryptoRiskAnalyses.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { network, address } = request.query;
    const matching = state.analyses.filter(
      (entry) =>
        entry.accountId === account.id &&
        (network === undefined || entry.record.network === network) &&
        (address === undefined || entry.record.address === address),
    );
    const { meta, items } = limitPage(request.query, matching);
    return { status: 200, body: { meta, data: items.map((entry) => summary(entry.record)) } };
  },
  'cryptoRiskAnalyses.get': (request, state, env) => {
    const account = accountOf(request, state, env);
    const analysis = state.analyses.find((entry) => entry.accountId === account.id && entry.record.id === request.path.id);
    return { status: 200, body: { data: (analysis ?? notFound(`no analysis ${request.path.id} in this account`)).record } };
  },
  'cryptoRiskIngest.get': (request, state, env) => {
    const account = accountOf(request, state, env);
    const ingest = state.ingests[`${account.id}:${String(request.query.network)}:${String(request.query.address)}`];
    return { status: 200, body: { data: ingest ?? { status: 'IDLE', persisted: null } } };
  },
};

/** Task `finishIngest { key, address }`: the ingest that was RUNNING is IDLE with the wallet's history. */
export const finishIngest: TaskRunner<AccountsState> = (args, state) => {
  const key = String(args.key);
  if (state.ingests[key]?.status !== 'RUNNING') return;
  state.ingests[key] = { status: 'IDLE', persisted: historySize(String(args.address)) };
};
