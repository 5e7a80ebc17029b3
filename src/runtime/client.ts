/**
 * The one client factory: from an interface definition, the generated operation table and the caller's
 * options it makes the transport (certificate, proxy or dispatcher), the token cache over the
 * interface's token request, and runtimes over the pipeline with the interface's steps. Each
 * src/<interface>/index.ts adds only its generated facade and its own helpers on top.
 */
import { type ClientOptions, commonOptionNames, withRoutes } from './client-options.js';
import type { FacadeRuntime } from './contract.js';
import type { InterfaceDefinition, OperationTable } from './definition.js';
import { createRuntime, type DocumentChecks, type RuntimeOptions } from './runtime.js';
import { ConfigurationError } from './errors.js';
import { checkMiddleware } from './middleware.js';
import { checkTelemetryOption, type ClientTelemetry, clientTelemetry } from './telemetry.js';
import { checkJournal, type ResumedCall, type ResumeOptions, resumeInDoubtCalls } from './journal.js';
import type { Step } from './pipeline.js';
import { type RateLimit, RateLimiter, type RequestLimiter } from './rate-limiter.js';
import { TokenCache } from './token-cache.js';
import { requestToken } from './token-request.js';
import { checkBaseUrl, type TlsOptions, Transport } from './transport.js';

/** What every client has: the options common to all interfaces, with the credentials where the interface keeps them. */
export type CommonClientOptions = Omit<ClientOptions, 'clientId' | 'clientSecret' | 'tls'> & { readonly tls?: TlsOptions | undefined };

export interface ClientCore {
  readonly baseUrl: string;
  /** The operation table with the caller's routes for provisional operations. */
  readonly operations: OperationTable;
  /**
   * A runtime of this client (its transport and token): over its main document by default; `steps` adds
   * steps for this runtime only, `document` reads another document (payload locations) at `baseUrl`.
   */
  runtime(variant?: RuntimeVariant): FacadeRuntime;
  /** What every client object carries besides its facade. */
  readonly lifecycle: {
    /** Presents `tls` on every new connection from now on (section 5.3: two active certificates during a rotation). */
    rotateCertificate(tls: TlsOptions): void;
    /** Closes the connections; calls after it fail. */
    close(): Promise<void>;
    /**
     * Re-sends every call the `journal` holds in doubt (sent, outcome unknown: the process died or the answer
     * was lost) with its original key and arguments, records each outcome and reports it.
     */
    resumeInDoubt(options?: ResumeOptions): Promise<ResumedCall[]>;
  };
}

export interface RuntimeVariant {
  readonly steps?: (defaults: readonly Step[]) => readonly Step[];
  /** Another document of the interface, read without a token at another address. */
  readonly document?: { readonly baseUrl: string; readonly operations: OperationTable; readonly checks: () => Promise<DocumentChecks> };
}

/** The nearest known name, for "did you mean" in the error of an unknown option. */
function nearest(name: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i += 1) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j += 1) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  const best = [...known].sort((a, b) => distance(name, a) - distance(name, b))[0];
  return best !== undefined && distance(name, best) <= Math.max(2, Math.floor(name.length / 2)) ? best : undefined;
}

/** Refuses an option the client does not know: a misspelt `responseValidaton` must not pass silently. */
function checkOptionNames(definition: InterfaceDefinition<never>, options: object): void {
  const known = [...commonOptionNames, ...definition.client.optionNames];
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const suggestion = nearest(name, known);
    throw new ConfigurationError(
      `${definition.name} client: unknown option ${name}${suggestion ? ` (did you mean ${suggestion}?)` : ''}; known options: ${known.join(', ')}`,
    );
  }
}

/** The caller's limiter, else a memory one over the caller's windows or the interface's published ones; `false` turns it off. */
function limiterOf(options: CommonClientOptions, published: readonly RateLimit[] | undefined): RequestLimiter | undefined {
  if (options.rateLimiter !== undefined) {
    if (options.rateLimit !== undefined)
      throw new ConfigurationError('rateLimit and rateLimiter exclude each other: the windows belong in the limiter you pass');
    if (typeof options.rateLimiter?.acquire !== 'function')
      throw new ConfigurationError('rateLimiter must have an acquire(signal) method returning a promise');
    return options.rateLimiter;
  }
  const limits = options.rateLimit === false ? undefined : (options.rateLimit ?? published);
  return limits ? new RateLimiter(limits) : undefined;
}

export function createClientCore<Options extends CommonClientOptions>(
  definition: InterfaceDefinition<Options>,
  table: OperationTable,
  options: Options,
): ClientCore {
  checkOptionNames(definition as unknown as InterfaceDefinition<never>, options);
  const baseUrl = checkBaseUrl(options.baseUrl);
  definition.client.checkOptions?.(options);
  const operations = withRoutes(table, options.routes);
  const transport = new Transport(options.tls, {
    ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const credentials = definition.client.credentials(options);
  const tokenRequest = definition.client.tokenRequest(baseUrl, options, operations);
  const tokens = new TokenCache({
    skewSeconds: options.tokenSkewSeconds ?? 60,
    issue: async (reason, requester) => {
      const span = requester?.token(reason, tokenRequest.request.url);
      try {
        const traced = span && Object.keys(span.headers).length > 0;
        const request = traced
          ? { ...tokenRequest, request: { ...tokenRequest.request, headers: { ...tokenRequest.request.headers, ...span.headers } } }
          : tokenRequest;
        const token = await requestToken(transport.send, request);
        span?.end();
        options.logger?.({ level: 'info', event: 'token', data: { issued: true, expiresIn: token.expiresIn } });
        return token;
      } catch (error) {
        span?.end(error, (error as { status?: number }).status);
        throw error;
      }
    },
  });
  // One limiter per client: forAccount() and the other runtimes of a client share its budget.
  const rateLimiter = limiterOf(options, definition.client.defaultRateLimits);
  const middleware = options.middleware === undefined ? undefined : checkMiddleware(options.middleware);
  checkTelemetryOption(options.telemetry);
  const [main] = definition.documents;
  const loadMain = async (): Promise<DocumentChecks> => {
    const modules = await main.load();
    return {
      validators: modules.validators.operations,
      patternDescriptions: modules.patternDescriptions,
      crossFieldChecks: modules.crossFieldChecks,
    };
  };
  const shared: Omit<RuntimeOptions, 'baseUrl' | 'operations' | 'checks'> = {
    send: transport.send,
    credentials,
    responseValidation: options.responseValidation ?? 'off',
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.journal !== undefined ? { journal: { journal: checkJournal(options.journal), scope: definition.name } } : {}),
    maskDocuments: options.maskDocuments ?? true,
    secrets: () => [...tokenRequest.secrets, tokens.peek() ?? ''],
    ...(middleware ? { middleware } : {}),
  };
  const telemetryAt = (address: string): ClientTelemetry =>
    clientTelemetry({ interfaceName: definition.name, baseUrl: address, option: options.telemetry });
  const interfaceSteps = definition.client.steps;
  const mainTelemetry = telemetryAt(baseUrl);

  const core: ClientCore = {
    baseUrl,
    operations,
    runtime(variant = {}) {
      const steps = (defaults: readonly Step[]): readonly Step[] => {
        const withInterface = interfaceSteps ? interfaceSteps(options, defaults) : defaults;
        return variant.steps ? variant.steps(withInterface) : withInterface;
      };
      if (variant.document) {
        const { document } = variant;
        const documentUrl = checkBaseUrl(document.baseUrl);
        return createRuntime({
          ...shared,
          telemetry: telemetryAt(documentUrl),
          baseUrl: documentUrl,
          operations: document.operations,
          checks: document.checks,
          steps,
        });
      }
      return createRuntime({ ...shared, telemetry: mainTelemetry, baseUrl, operations, checks: loadMain, tokens, steps });
    },
    lifecycle: {
      rotateCertificate: (tls) => transport.rotate(tls),
      close: () => transport.close(),
      // A method of the client, not a function taking one: it resumes with the client's own journal and
      // scope, and calls each operation by id through the client's own steps and credentials.
      async resumeInDoubt(resumeOptions) {
        if (!shared.journal) throw new ConfigurationError(`${definition.name} client: resumeInDoubt needs the client option journal`);
        return resumeInDoubtCalls(core.runtime(), shared.journal.journal, shared.journal.scope, resumeOptions);
      },
    },
  };
  return core;
}
