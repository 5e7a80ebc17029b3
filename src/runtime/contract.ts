/**
 * The contract between the generated operation tables and facades and the runtime: the shape of an
 * operation's row, the options of a call, the argument and result types a facade derives from
 * openapi-typescript's `operations`, and the runtime a facade calls. Hand-written: generated/<interface>/
 * operations.ts imports it type-only (the one place generated code reads src/, docs/decisions.md).
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The query styles the runtime writes and reads (query.ts); regenerate refuses any other (scripts/steps/operations.ts). */
export const queryStyles = ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'] as const;
export type QueryStyle = (typeof queryStyles)[number];

export interface ParameterInfo {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  /** JSON Schema type of the parameter, used to turn text (CLI arguments, URL segments) into values. */
  readonly type: string | null;
  /** How a query parameter is written (OpenAPI `style`; form when absent): query.ts writes and reads it. */
  readonly style?: QueryStyle;
  /** Whether a list is written one pair per item (OpenAPI `explode`; when absent, true for form, false for the others). */
  readonly explode?: boolean;
}

/**
 * How a paginated list says whether another page follows, declared per operation (x-pagination `style`):
 * - `page-count`: the meta counts the pages; more while the page (counted from 1) is before the last;
 * - `next-page`: the meta names the next page (a number, null on the last); more while it is after this one;
 * - `last-page`: the meta names the last page; more while this one is before it;
 * - `page-total`: the meta counts the items; more while page × size is below the total;
 * - `offset-total`: the position is an offset and the meta counts the items; more while items remain;
 * - `full-page`: nothing counts; more while the page received was full.
 */
export type PagingStyle = 'page-count' | 'next-page' | 'last-page' | 'page-total' | 'offset-total' | 'full-page';

/** Everything the runtime, the CLI and the docs need to know of one operation. */
export interface OperationInfo {
  readonly operationId: string;
  /** Facade group and method: `client.<group>.<name>()`. */
  readonly group: string;
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  /** OAuth2 scopes the credential needs. */
  readonly scopes: readonly string[];
  /** Whether the call carries a bearer token (false only for the token request itself). */
  readonly secured: boolean;
  /** Whether the call authenticates the client itself with HTTP Basic (an OAuth 2.0 token request). */
  readonly basicAuth: boolean;
  /** Header of an API-key token scheme (the spec's `apiKey` in a header); null: the token goes as `Authorization: Bearer`. */
  readonly tokenHeader: string | null;
  readonly parameters: readonly ParameterInfo[];
  readonly requestBody: { readonly mediaType: string; readonly required: boolean } | null;
  /** Header that carries the idempotency key of this operation, as the spec spells it, and its limits, so generated keys fit them. */
  readonly idempotencyKeyRule: {
    readonly header: string;
    readonly minLength: number | null;
    readonly maxLength: number | null;
    readonly pattern: string | null;
  } | null;
  readonly pagination: {
    /** How the walk tells whether another page follows (x-pagination `style`; the strategies are in paging.ts). */
    readonly style: PagingStyle;
    /** Query parameter of the position: the page number, or with `offset-total` the offset of the first item. */
    readonly position: string;
    readonly size: string;
    readonly defaultSize: number | null;
    /** Position of the first page: the first page number (x-pagination `firstPage`, default 1), 0 for offsets. */
    readonly firstPage: number;
    /** Member of a page holding its items (x-pagination `items`, default `data`). */
    readonly items: string;
    /** Dotted path of the page's paging information (`meta`, `parametros.paginacao`). */
    readonly meta: string;
    /** Member of that paging information the style reads (`total`, `nextPage`, ...); null with `full-page`. */
    readonly member: string | null;
  } | null;
  /** Error types (section 7.2) the operation can answer with, e.g. CobNaoEncontrado. */
  readonly errorTypes: readonly string[];
  /**
   * Its problem answers (section 7): the shape of `type` (`{base_url}/errors/{errorType}`; null where the
   * spec shows no error format) and the error types declared per status (scripts/steps/problem-types.ts).
   */
  readonly problemTypes: {
    readonly shape: string | null;
    readonly byStatus: Readonly<Record<string, readonly string[]>>;
  };
  /** The 200 body is a compact JWS whose payload has this component schema (payload locations). */
  readonly jwsPayload: string | null;
  /** Where the description comes from when the interface specification only names it (the spec's `x-source`). */
  readonly source: string | null;
  /** Body member that carries the idempotency key (interface C's fraud marker `RequestId`): filled when absent, kept on retries. */
  readonly idempotencyBodyField: string | null;
  /** Name of the message this operation sends (interface C: `pacs.008`, `dict.create-key`, ...). */
  readonly message: string | null;
  /** Header selecting a child account on this operation (read by the interface's own step, not by the engine). */
  readonly accountHeader: string | null;
  /** The last path segment may be sent in any case (webhook registration types, section 4.5). */
  readonly pathCaseInsensitive: boolean;
  /** The interface specification does not show this method or path (the spec's `x-provisional-reason` says why). */
  readonly provisional: boolean;
  readonly responseStatuses: readonly string[];
}

export interface CallOptions {
  /** Extra request headers, e.g. Prism's `Prefer: code=404`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Cancels the call (and its retries). */
  readonly signal?: AbortSignal;
  /** Idempotency key to send; one is generated when the operation takes a key and none is given. */
  readonly idempotencyKey?: string;
  /**
   * Your business reference of this call (an order id), with the client option `journal`: it maps to one
   * idempotency key for good, so the call repeated after a crash is sent with the key of the first; once it
   * succeeded, the same reference is not sent again but resolves with the recorded result (`fromJournal`).
   */
  readonly reference?: string;
  /** Time limit of each attempt, overriding the client's. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, overriding the client's policy. */
  readonly maxRetries?: number;
  /** Told of the successful answer's status and headers (e.g. interface C's `svc-pull-next`), before the result returns. */
  readonly onResponse?: (answer: { readonly status: number; readonly headers: Headers }) => void;
}

type Defined<T> = Exclude<T, undefined>;
/** The empty object type, as an intersection member that adds nothing. */
type Nothing = Record<never, never>;
type Slot<Key extends string, T> = [Defined<T>] extends [never]
  ? Nothing
  : Nothing extends Defined<T>
    ? { readonly [K in Key]?: Defined<T> }
    : { readonly [K in Key]: Defined<T> };
type ParametersOf<Op> = Op extends { parameters: infer P } ? P : Nothing;
type Located<Op, L extends string> = ParametersOf<Op> extends { [K in L]?: infer V } ? V : never;
/** The idempotency header is optional in calls: the runtime supplies one. */
type HeadersOf<Op, Supplied extends string> = [Defined<Located<Op, 'header'>>] extends [never]
  ? never
  : Omit<Defined<Located<Op, 'header'>>, Supplied> &
      Partial<Pick<Defined<Located<Op, 'header'>>, Extract<keyof Defined<Located<Op, 'header'>>, Supplied>>>;
type RequestBodyOf<Op> = Op extends { requestBody?: infer B } ? NonNullable<B> : never;
type BodySlot<Op> = [RequestBodyOf<Op>] extends [never]
  ? Nothing
  : RequestBodyOf<Op> extends { content: infer C }
    ? Op extends { requestBody: unknown }
      ? { readonly body: C[keyof C] }
      : { readonly body?: C[keyof C] }
    : Nothing;

/** Arguments of a facade call: `{ path?, query?, header?, body? }`, each required when the spec requires it. */
export type OperationArgs<Op, SuppliedHeader extends string = never> = Slot<'path', Located<Op, 'path'>> &
  Slot<'query', Located<Op, 'query'>> &
  Slot<'header', HeadersOf<Op, SuppliedHeader>> &
  BodySlot<Op>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
/** The parsed body of a successful response (undefined for a response without a body). */
export type OperationResult<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? (R[S] extends { content: infer C } ? C[keyof C] : undefined) : never }[keyof R]
  : never;

/** Element of the items array of a page (`data`, `cobs`, ...). */
export type PageItem<Page, Items extends string = 'data'> = Page extends { [K in Items]?: ReadonlyArray<infer Item> } ? Item : never;

/** What the client knows of the answer behind a result. */
export interface CallResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The idempotency key the call carried (the same on every attempt), if it took one. */
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  /** Correlation or request id the server sent (header or problem body). */
  readonly correlationId: string | undefined;
  /**
   * True when nothing was sent: the call's `reference` had already succeeded, and the client's `journal`
   * answered with the result it recorded then (the server may have forgotten the key since). `status` is the
   * recorded status, `idempotencyKey` the original one, `attempts` 0; `headers` are empty and `correlationId`
   * undefined, since no answer came.
   */
  readonly fromJournal: boolean;
}

/** The promise of a facade call: awaited, the result; `withResponse()` gives the result with its answer. */
export interface CallPromise<T> extends Promise<T> {
  withResponse(): Promise<{ readonly data: T; readonly response: CallResponse }>;
}

/** What a generated facade calls; implemented by src/runtime. */
export interface FacadeRuntime {
  invoke(operationId: string, args: object, options?: CallOptions): CallPromise<unknown>;
  pages(operationId: string, args: object, options?: CallOptions): AsyncIterable<unknown>;
}
