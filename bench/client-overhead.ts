/**
 * Section `client` of `npm run bench`: what a facade call costs over the transport it stands on. One GET
 * (`feeRules.get`, a fee rule of 12 members in JSON) to one keep-alive server on 127.0.0.1, in this process, by
 * each contender:
 *
 * - `request`: undici's `request()` on an undici `Agent` with keep-alive, as the client's transport makes it
 *   (src/runtime/transport.ts): the floor of the transport;
 * - `fetch`: Node's global `fetch` (the undici bundled with Node, not the package's);
 * - `openapiFetch`: openapi-fetch's `createClient<paths>()` alone, over the global fetch;
 * - `facade`: the contrato facade and runtime given validator sets that check nothing (no request validation);
 * - `facadeChecked`: `createCoreBankingClient()` as users get it (request validation on, no rate limiter), with
 *   `telemetry: false` (what the default does while no tracer provider is registered);
 * - `facadeTracingOn` (tracingContenders): the same client with tracing on, spans dropped.
 *
 * The client's modules come from dist/ (`npm run bench` builds it first), as users run them. Each contender
 * reads the whole body and parses it as JSON; before timing, each must have sent GET /fee-rules/{id} with the
 * token and read that fee rule (the header names each sent are recorded). The contenders are interleaved call by
 * call, each turn in a new (seeded) order, so the drift of a noisy machine hits them alike and none always
 * follows the same other; a round is `calls` calls of each. Per round, each contender's median call; kept: the median over the rounds of the facade's
 * median over each baseline's (wall time, and CPU time of the process against `request`), and each contender's
 * median over all its calls.
 */
import { deepStrictEqual } from 'node:assert';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { Agent } from 'undici';
import type { paths } from '../generated/core-banking/types.js';
import type { CompiledValidator } from '../src/runtime/validation.js';
import { feeRule } from '../test/helpers/fee-rule.js';

/**
 * The client's modules, from dist/ (what users run: tsc's output, which `npm run bench` builds first) or from
 * src/ through the tsx loader. The two differ: tsx compiles with esbuild's keepNames, which wraps every inner
 * named function in a `__name()` call made each time the function is created (several per call here).
 */
export type ClientSource = 'dist' | 'src';

export async function clientModules(source: ClientSource) {
  const root = new URL(source === 'dist' ? '../dist/' : '../', import.meta.url).href;
  const [operations, coreBanking, runtime, tokenCache, transport] = await Promise.all([
    import(`${root}generated/core-banking/operations.js`) as Promise<typeof import('../generated/core-banking/operations.js')>,
    import(`${root}src/core-banking/index.js`) as Promise<typeof import('../src/core-banking/index.js')>,
    import(`${root}src/runtime/runtime.js`) as Promise<typeof import('../src/runtime/runtime.js')>,
    import(`${root}src/runtime/token-cache.js`) as Promise<typeof import('../src/runtime/token-cache.js')>,
    import(`${root}src/runtime/transport.js`) as Promise<typeof import('../src/runtime/transport.js')>,
  ]);
  return { ...operations, ...coreBanking, ...runtime, ...tokenCache, ...transport };
}

/** One way of making the call; `call` resolves with the parsed body. */
export interface Contender {
  /** Its key in bench/results.json (`client.perCallMedianUs.<key>`, `client.facadeVs.<key>` …). */
  readonly key: string;
  readonly label: string;
  readonly call: () => Promise<unknown>;
  readonly close?: () => Promise<void>;
}

/** What a contender needs to make the same call as the others. */
export interface ClientBenchSetup {
  /** The server's base URL (`http://127.0.0.1:<port>`), which also answers POST /auth/token. */
  readonly url: string;
  /** The facade's arguments of the call. */
  readonly args: { readonly path: { readonly id: string } };
  /** Where the client's modules come from (`clientModules(setup.source)`). */
  readonly source: ClientSource;
}

/**
 * The client with OpenTelemetry tracing on: the default option, with a tracer provider registered for the whole
 * section whose processor drops every span (a no-op exporter), so the spans of each call and its attempt are made,
 * filled and ended. Tracing off is `facadeChecked`, the same client with `telemetry: false` (the provider being
 * registered, the default would trace). `tracingOnVsOff` is this contender over that one.
 */
export async function tracingContenders(setup: ClientBenchSetup): Promise<Contender[]> {
  const { createCoreBankingClient } = await clientModules(setup.source);
  const { trace } = await import('@opentelemetry/api');
  const { BasicTracerProvider, NoopSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const provider = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] });
  trace.setGlobalTracerProvider(provider);
  const on = createCoreBankingClient({
    baseUrl: setup.url,
    clientId: 'bench',
    clientSecret: 'bench',
    rateLimit: false,
    retry: { maxRetries: 0 },
  });
  return [
    {
      key: 'facadeTracingOn',
      label: 'facade with request validation, tracing on (spans dropped)',
      call: () => on.feeRules.get(setup.args),
      close: async () => {
        await on.close();
        trace.disable();
        await provider.shutdown();
      },
    },
  ];
}

/** The loopback server every contender calls: a fee rule for any GET, a token for POST /auth/token. */
export async function startFeeRuleServer(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  close: () => Promise<void>;
}> {
  const body = JSON.stringify(feeRule);
  const token = JSON.stringify({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === '/auth/token') return response.writeHead(200, { 'content-type': 'application/json' }).end(token);
    if (seen.length < 100) seen.push({ ...request.headers, ':method': request.method, ':path': request.url });
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The contenders of the comparison, on `setup.url`: the three baselines and the two facades. */
export async function baseContenders(setup: ClientBenchSetup): Promise<Contender[]> {
  const { url, args } = setup;
  const { createCoreBankingClient, createCoreBankingFacade, createRuntime, operationTable, TokenCache, Transport } = await clientModules(
    setup.source,
  );
  const path = `/fee-rules/${args.path.id}`;
  const headers = { authorization: 'Bearer tok' };
  // The transport's agent: keep-alive (undici's default) with the transport's idle timeout.
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const openapi = createClient<paths>({ baseUrl: url, headers });
  // Without request validation: the same facade and runtime, given validator sets that check nothing
  // (the clients have no switch to turn validation off; this one exists only to measure its cost).
  const transport = new Transport();
  const acceptAll = Object.assign(() => true, { errors: null }) as unknown as CompiledValidator;
  const unchecked = createCoreBankingFacade(
    createRuntime({
      baseUrl: url,
      operations: operationTable,
      checks: {
        validators: Object.fromEntries(
          Object.keys(operationTable).map((id) => [
            id,
            { body: null, parameters: { path: acceptAll, query: acceptAll, header: acceptAll }, responses: {} },
          ]),
        ),
        patternDescriptions: {},
      },
      send: transport.send,
      tokens: new TokenCache({ issue: async () => ({ accessToken: 'tok', expiresIn: 3600 }) }),
      retry: { maxRetries: 0 },
    }),
  );
  const checked = createCoreBankingClient({
    baseUrl: url,
    clientId: 'bench',
    clientSecret: 'bench',
    rateLimit: false,
    retry: { maxRetries: 0 },
    // Tracing off: the section registers a tracer provider for tracingContenders, which the default would use.
    telemetry: false,
  });
  return [
    {
      key: 'request',
      label: "undici request() (the transport's floor)",
      call: async () => {
        const answer = await agent.request({ origin: url, path, method: 'GET', headers });
        return answer.body.json();
      },
      close: () => agent.close(),
    },
    {
      key: 'fetch',
      label: 'global fetch',
      call: async () => (await fetch(`${url}${path}`, { headers })).json(),
    },
    {
      key: 'openapiFetch',
      label: 'openapi-fetch alone',
      call: async () => (await openapi.GET('/fee-rules/{id}', { params: { path: args.path } })).data,
    },
    { key: 'facade', label: 'facade, no request validation', call: () => unchecked.feeRules.get(args), close: () => transport.close() },
    { key: 'facadeChecked', label: 'facade with request validation', call: () => checked.feeRules.get(args), close: () => checked.close() },
  ];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** A draw in [0, 1) from `seed` (mulberry32): the same order of calls in every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 0 … n − 1 in a random order (Fisher–Yates). */
function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
const round1 = (value: number): number => Math.round(value * 10) / 10;

/** The facades, each measured against every baseline. */
const facadeKeys = (contenders: readonly Contender[]): string[] =>
  contenders.map((c) => c.key).filter((key) => key === 'facade' || key === 'facadeChecked' || key.startsWith('facadeTracing'));
const baselineKeys = ['request', 'fetch', 'openapiFetch'] as const;
type Baseline = (typeof baselineKeys)[number];

export interface ClientOverhead {
  /** Facade / fetch without and with request validation, as earlier runs recorded them (now round medians). */
  readonly overheadVsFetch: number;
  readonly overheadVsFetchWithValidation: number;
  /** Where the client's modules came from: dist/ (tsc's output, as users run it) or src/ through tsx. */
  readonly source: ClientSource;
  readonly callsPerRound: number;
  readonly rounds: number;
  /** The machine's load average over 1 minute when the section began and ended (2 cores). */
  readonly loadAverage: readonly [number, number];
  /** Each contender's median call over every call of every round, wall time, in µs. */
  readonly perCallMedianUs: Record<string, number>;
  /** The same in CPU time of the process (the in-process server's share of the call included), in µs. */
  readonly perCallCpuMedianUs: Record<string, number>;
  /**
   * For each facade, its median call over each baseline's median call in the same round, median over the rounds
   * (wall time). `facadeVs.facade.request` is the figure of the goal (≤ 1.10).
   */
  readonly facadeVs: Record<string, Record<Baseline, number>>;
  /** The same ratio to undici request() in CPU time: steadier on a busy machine (no waiting counted). */
  readonly facadeVsRequestCpu: Record<string, number>;
  /** The client with tracing on (spans made and dropped) over the same client with `telemetry: false`: goal ≤ 1.15. */
  readonly tracingOnVsOff: number;
  /** fetch and openapi-fetch over undici request(), measured the same way. */
  readonly vsRequest: Record<string, number>;
  /** The header names the server saw from each contender (host aside): the same request, or a note why not. */
  readonly requestHeaders: Record<string, string[]>;
}

/** Where a call's time goes: wall time and the process's CPU time, both in ms. */
interface Timed {
  readonly wall: number[];
  readonly cpu: number[];
}

export async function benchClient(
  rounds: number,
  calls = Number(process.env.BENCH_CLIENT_CALLS ?? 300),
  source: ClientSource = process.env.BENCH_CLIENT_FROM === 'src' ? 'src' : 'dist',
): Promise<ClientOverhead> {
  const loadAtStart = loadavg()[0]!;
  const server = await startFeeRuleServer();
  const setup: ClientBenchSetup = { url: server.url, args: { path: { id: feeRule.id } }, source };
  const contenders = [...(await baseContenders(setup)), ...(await tracingContenders(setup))];
  try {
    // Every contender must make the same call and read the same fee rule before its time means anything.
    const requestHeaders: Record<string, string[]> = {};
    for (const contender of contenders) {
      server.seen.length = 0;
      deepStrictEqual(await contender.call(), feeRule, `${contender.label} read another body`);
      const seen = server.seen.at(-1)!;
      if (seen[':method'] !== 'GET' || seen[':path'] !== `/fee-rules/${feeRule.id}` || seen.authorization !== 'Bearer tok')
        throw new Error(`${contender.label} sent another request: ${JSON.stringify(seen)}`);
      requestHeaders[contender.key] = Object.keys(seen)
        .filter((name) => !name.startsWith(':') && name !== 'host')
        .sort();
    }
    const all: Timed[] = contenders.map(() => ({ wall: [], cpu: [] }));
    const random = seededRandom(20261128);
    /** One round: `count` calls of each contender, interleaved call by call; each contender's median call. */
    const roundOf = async (count: number): Promise<Timed[]> => {
      const round: Timed[] = contenders.map(() => ({ wall: [], cpu: [] }));
      for (let i = 0; i < count; i += 1) {
        // Each turn in a new order: a contender that always followed the same other one would find the caches
        // as that one left them (a facade after a facade runs on warm code).
        for (const v of shuffled(contenders.length, random)) {
          const cpuBefore = process.cpuUsage();
          const started = performance.now();
          await contenders[v]!.call();
          const elapsed = performance.now() - started;
          const { user, system } = process.cpuUsage(cpuBefore);
          round[v]!.wall.push(elapsed);
          round[v]!.cpu.push((user + system) / 1000);
        }
      }
      return round;
    };
    await roundOf(Math.max(100, Math.floor(calls / 3)));
    const index = (key: string): number => contenders.findIndex((c) => c.key === key);
    // Medians of calls, not totals: on a busy machine one call of a round can wait for the core many times
    // longer than the others, and a total would be that wait's.
    const ratios: Record<string, number[]> = {};
    const push = (key: string, value: number): void => void (ratios[key] ??= []).push(value);
    for (let r = 0; r < rounds; r += 1) {
      const round = await roundOf(calls);
      round.forEach((timed, i) => {
        all[i]!.wall.push(...timed.wall);
        all[i]!.cpu.push(...timed.cpu);
      });
      const wall = (key: string): number => median(round[index(key)]!.wall);
      const cpu = (key: string): number => median(round[index(key)]!.cpu);
      for (const facade of facadeKeys(contenders)) {
        for (const baseline of baselineKeys) push(`${facade}/${baseline}`, wall(facade) / wall(baseline));
        push(`${facade}/request cpu`, cpu(facade) / cpu('request'));
      }
      for (const baseline of baselineKeys.slice(1)) push(`${baseline}/request`, wall(baseline) / wall('request'));
      push('tracing on/off', wall('facadeTracingOn') / wall('facadeChecked'));
    }
    const ratio = (key: string): number => round2(median(ratios[key]!));
    const perCall = (pick: (timed: Timed) => number[]): Record<string, number> =>
      Object.fromEntries(contenders.map((c, i) => [c.key, round1(median(pick(all[i]!)) * 1000)]));
    return {
      overheadVsFetch: ratio('facade/fetch'),
      overheadVsFetchWithValidation: ratio('facadeChecked/fetch'),
      source,
      callsPerRound: calls,
      rounds,
      loadAverage: [round2(loadAtStart), round2(loadavg()[0]!)],
      perCallMedianUs: perCall((timed) => timed.wall),
      perCallCpuMedianUs: perCall((timed) => timed.cpu),
      facadeVs: Object.fromEntries(
        facadeKeys(contenders).map((facade) => [
          facade,
          Object.fromEntries(baselineKeys.map((baseline) => [baseline, ratio(`${facade}/${baseline}`)])) as Record<Baseline, number>,
        ]),
      ),
      facadeVsRequestCpu: Object.fromEntries(facadeKeys(contenders).map((facade) => [facade, ratio(`${facade}/request cpu`)])),
      tracingOnVsOff: ratio('tracing on/off'),
      vsRequest: Object.fromEntries(baselineKeys.slice(1).map((baseline) => [baseline, ratio(`${baseline}/request`)])),
      requestHeaders,
    };
  } finally {
    await Promise.all(contenders.map((c) => c.close?.()));
    await server.close();
  }
}
