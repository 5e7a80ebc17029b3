/**
 * Wallet risk analysis (section 4.7): POST answers 201 with the snapshot when the wallet's history is
 * already ingested, or 202 while ingestion runs; then GET /crypto-risk/ingest is polled until IDLE with
 * `persisted` not null, and the POST repeated for the 201. A 409 (another wallet's ingest running) and
 * a 422 (unsupported network) are surfaced as they come; the whole flow is bounded by a deadline.
 */
import type { AccountsFacade } from '../../generated/accounts/operations.js';
import type { CallOptions } from '../runtime/contract.js';
import { TimeoutError } from '../runtime/errors.js';
import { defaultSleep } from '../runtime/rate-limiter.js';

type Analysis = Awaited<ReturnType<AccountsFacade['cryptoRiskAnalyses']['create']>>;
type CreateBody = Parameters<AccountsFacade['cryptoRiskAnalyses']['create']>[0]['body'];

export interface RiskAnalysisInput {
  readonly network: CreateBody['network'];
  readonly address: string;
  /** Give up after this long (default 120 s). */
  readonly deadlineMs?: number;
  /** Wait between ingest polls (default 2 s). */
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
  /** Told of each ingest poll, e.g. to show progress. */
  readonly onProgress?: (progress: { readonly status: unknown; readonly persisted: unknown }) => void;
  /** The present instant and the wait (tests inject them). */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type RiskAnalysisFlow = (input: RiskAnalysisInput, options?: CallOptions) => Promise<Analysis>;

export function analyzeWallet(facade: AccountsFacade): RiskAnalysisFlow {
  return async (input, options) => {
    const now = input.now ?? Date.now;
    const sleep = input.sleep ?? defaultSleep;
    const deadline = now() + (input.deadlineMs ?? 120_000);
    const interval = input.pollIntervalMs ?? 2_000;
    const callOptions = { ...options, ...(input.signal ? { signal: input.signal } : {}) };
    const body = { network: input.network, address: input.address } as CreateBody;
    const late = (what: string) =>
      new TimeoutError(`crypto risk analysis of ${input.address}: ${what} within ${input.deadlineMs ?? 120_000} ms`, {
        operationId: 'cryptoRiskAnalyses.create',
      });
    for (;;) {
      // A 201 carries the closed snapshot; a 202 carries no analysis.
      const { data: result, response } = await facade.cryptoRiskAnalyses.create({ body }, callOptions).withResponse();
      if (response.status === 201) return result;
      // 202: the ingest of this wallet started or is running; follow it until the history is stored.
      for (;;) {
        if (now() + interval > deadline) throw late('the wallet history was not ingested');
        await sleep(interval, input.signal);
        const progress = await facade.cryptoRiskIngest.get({ query: { network: input.network, address: input.address } }, callOptions);
        const data = (progress as { data?: { status?: unknown; persisted?: unknown } }).data ?? {};
        input.onProgress?.({ status: data.status, persisted: data.persisted });
        if (data.status === 'IDLE' && data.persisted !== null && data.persisted !== undefined) break;
      }
      if (now() > deadline) throw late('no snapshot was produced');
    }
  };
}
