/**
 * The promise a facade call returns: awaited, it gives the result as before; `withResponse()` gives the
 * result together with its answer (status, headers, idempotency key, attempts, correlation id), for any
 * result — also one that is not an object, which `responseMeta` cannot describe.
 */
import type { CallPromise, CallResponse } from './contract.js';

export type Answered<T> = { readonly data: T; readonly response: CallResponse };

export class ContratoCallPromise<T> extends Promise<T> implements CallPromise<T> {
  readonly #answered: Promise<Answered<T>>;
  #data: Promise<T> | undefined;

  constructor(answered: Promise<Answered<T>>) {
    // The base promise is never read: then/catch/finally follow the answer (as the Stainless SDKs do).
    super((resolve) => resolve(undefined as T));
    this.#answered = answered;
  }

  /** Derived promises are plain ones: only a call's own promise has withResponse(). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  withResponse(): Promise<Answered<T>> {
    return this.#answered;
  }

  #result(): Promise<T> {
    if (!this.#data) this.#data = this.#answered.then((answered) => answered.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: a call's promise is a Promise, so it has then().
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result().then(onFulfilled, onRejected);
  }

  override catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#result().catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#result().finally(onFinally);
  }
}
