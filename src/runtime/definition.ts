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
  /** How `contrato sandbox` serves it and the docs' samples reach it; every member has a default. */
  readonly sandbox?: DocumentSandbox;
}

/** A spec document at the sandbox. */
export interface DocumentSandbox {
  /** Path below the sandbox's address, the client's base URL there (default `/<document name>`). */
  readonly prefix?: string;
  /**
   * Operations a client reaches through a reader of a URL instead of a facade method (operationId ->
   * reader of `client.locations`), for the docs' samples.
   */
  readonly readers?: Readonly<Record<string, string>>;
}

/**
 * A credential the sandbox seeds for an interface (a sandbox's, never a real one: every seeded credential
 * has the secret `sandbox-secret`). Its scopes are those of the oauth2 flows of the security schemes of
 * the documents named, read from their bundles, so they cannot drift from the spec.
 */
export interface SandboxCredentialDefinition {
  readonly clientId: string;
  /** Spec documents whose oauth2 scopes it holds (default: the interface's own documents). */
  readonly scopesOf?: readonly string[];
  /** Scopes of those it does not hold (a kind of caller the spec grants less). */
  readonly lacks?: (scope: string) => boolean;
}

/** An interface at the sandbox: its seeded credentials, and the client the docs' samples and the tests build there. */
export interface InterfaceSandbox {
  /** Default: one, `sandbox-<interface name>`, holding every scope of the interface's security schemes. */
  readonly credentials?: readonly SandboxCredentialDefinition[];
  /** The client of the samples (default: the first credential as `clientId`/`clientSecret`, no other option). */
  readonly client?: SandboxClientDefinition;
  /** Operations only another kind of caller may make (operationId -> the client of their samples). */
  readonly clientByOperation?: Readonly<Record<string, SandboxClientDefinition>>;
}

/** How a client of the interface presents a sandbox credential. */
export interface SandboxClientDefinition {
  /** Which credential (default: the first). */
  readonly clientId?: string;
  /** Client options beyond the address and the credential, as values (a child account to operate). */
  readonly options?: Readonly<Record<string, string | number>>;
  /** The credential is the client's `login` option rather than `clientId`/`clientSecret`. */
  readonly login?: boolean;
  /** The client needs a certificate file (`tls: { pfx }`), the one `contrato dev-certs` writes. */
  readonly pfx?: string;
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
  /** Its credentials at the sandbox and the client the samples build there; derived from the specs when absent. */
  readonly sandbox?: InterfaceSandbox;
}

/** The name of the client factory the interface's module exports (`create<Identifier>Client` of its first document). */
export const clientFactoryOf = (definition: Pick<InterfaceDefinition<never>, 'documents'>): string => {
  const identifier = definition.documents[0].identifier;
  return `create${identifier[0]!.toUpperCase()}${identifier.slice(1)}Client`;
};

/** The secret of every credential the sandbox seeds (a sandbox's; never a real one). */
export const sandboxSecret = 'sandbox-secret';

/** A document's path at the sandbox. */
export const sandboxPrefixOf = (document: Pick<DocumentDefinition, 'name' | 'sandbox'>): string =>
  document.sandbox?.prefix ?? `/${document.name}`;

/** The credentials an interface seeds at the sandbox: those it declares, else `sandbox-<name>`. */
export const sandboxCredentialsOf = (
  definition: Pick<InterfaceDefinition<never>, 'name' | 'sandbox'>,
): readonly SandboxCredentialDefinition[] => definition.sandbox?.credentials ?? [{ clientId: `sandbox-${definition.name}` }];

/** The client the samples and the tests build at the sandbox: the credential it presents and how. */
export function sandboxClientOf(
  definition: Pick<InterfaceDefinition<never>, 'name' | 'sandbox'>,
  operationId?: string,
): SandboxClientDefinition & {
  readonly clientId: string;
} {
  const client =
    (operationId === undefined ? undefined : definition.sandbox?.clientByOperation?.[operationId]) ?? definition.sandbox?.client ?? {};
  return { ...client, clientId: client.clientId ?? sandboxCredentialsOf(definition)[0]!.clientId };
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
