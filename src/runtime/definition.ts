/**
 * What makes an interface: its names, its spec documents and their generated files (loaded when first
 * needed), how its client gets a token, and the steps it adds to a call. Each src/<interface>/definition.ts
 * is one of these; src/interfaces.ts lists them, and the CLI, the mocks, the docs, coverage and the
 * package checks derive from that list. The engine reads definitions and names none.
 */
import type { OperationInfo } from './contract.js';
import type { CrossFieldChecks } from './cross-field.js';
import type { OperationValidatorSet, Step } from './pipeline.js';
import type { RateLimit } from './rate-limiter.js';
import type { ClientCredentials, TokenRequest } from './token-request.js';
import type { CompiledValidator } from './validation.js';

export type OperationTable = Readonly<Record<string, OperationInfo>>;

/** The generated files of one spec document, with its hand-written cross-field rules. */
export interface DocumentModules {
  readonly operationTable: OperationTable;
  readonly validators: {
    readonly schemas: Readonly<Record<string, CompiledValidator>>;
    readonly operations: Readonly<Record<string, OperationValidatorSet>>;
  };
  readonly patternDescriptions: Readonly<Record<string, string>>;
  readonly crossFieldChecks: CrossFieldChecks;
}

/** One spec document: specs/<name>/openapi.yaml, generated/<name>/, one mock, one CLI name. */
export interface DocumentDefinition {
  readonly name: string;
  /** Its name in TypeScript identifiers (`createPixLocationFacade`). */
  readonly identifier: string;
  readonly title: string;
  /** Fixed loopback port of its Prism mock (`contrato mock`, `npm start`). */
  readonly mockPort: number;
  /** Imports its generated operation table and validators, and its rules (dynamic imports: loaded on demand). */
  readonly load: () => Promise<DocumentModules>;
}

/** How a client of the interface is made from its options; the factory (client.ts) does the rest. */
export interface ClientDefinition<Options> {
  /** Option names of this client beyond the common ones (an unknown name is a ConfigurationError). */
  readonly optionNames: readonly string[];
  /** Refuses options that cannot work, before anything is sent. */
  readonly checkOptions?: (options: Options) => void;
  readonly credentials: (options: Options) => ClientCredentials;
  /** The interface's token request, for a client at `baseUrl` with these options and routes. */
  readonly tokenRequest: (baseUrl: string, options: Options, operations: OperationTable) => TokenRequest;
  /** Client-side limits used when the caller gives none (the limits the interface publishes). */
  readonly defaultRateLimits?: readonly RateLimit[];
  /** Steps the interface adds to every call (see steps/index.ts for the default list). */
  readonly steps?: (options: Options, defaults: readonly Step[]) => readonly Step[];
}

export interface InterfaceDefinition<Options = never> {
  /** Folder, package subpath and CLI name. */
  readonly name: string;
  /** Letter of the interface in the interface specification. */
  readonly letter: string;
  readonly title: string;
  /** The address placeholder the interface specification uses (`{base_url}`, `{qr_base_url}`, …). */
  readonly address: string;
  /** Its spec documents; the first is the API the client calls, others are read alongside (payload locations). */
  readonly documents: readonly [DocumentDefinition, ...DocumentDefinition[]];
  readonly client: ClientDefinition<Options>;
}

/** The modules of several documents seen as one (an interface whose API and payload locations share a name). */
export function mergedModules(parts: readonly DocumentModules[]): DocumentModules {
  return {
    operationTable: Object.assign({}, ...parts.map((part) => part.operationTable)),
    validators: {
      schemas: Object.assign({}, ...parts.map((part) => part.validators.schemas)),
      operations: Object.assign({}, ...parts.map((part) => part.validators.operations)),
    },
    patternDescriptions: Object.assign({}, ...parts.map((part) => part.patternDescriptions)),
    crossFieldChecks: Object.assign({}, ...parts.map((part) => part.crossFieldChecks)),
  };
}

/** A document's modules from its generated files (dynamic imports of the caller, so bundlers keep them apart). */
export async function documentModules(
  operations: Promise<{ readonly operationTable: OperationTable }>,
  validators: Promise<{ readonly validators: unknown; readonly patternDescriptions: Readonly<Record<string, string>> }>,
  crossFieldChecks: CrossFieldChecks | Promise<CrossFieldChecks> = {},
): Promise<DocumentModules> {
  const [table, checks, rules] = await Promise.all([operations, validators, crossFieldChecks]);
  return {
    operationTable: table.operationTable,
    validators: checks.validators as DocumentModules['validators'],
    patternDescriptions: checks.patternDescriptions,
    crossFieldChecks: rules,
  };
}
