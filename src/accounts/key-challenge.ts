/**
 * Creation of an EMAIL or PHONE key (section 4.1, rules 2 to 6): POST the challenge, let the caller
 * supply the code sent to the contact, then POST the key with the challenge's hash and the code — the
 * same key as the challenge, before the challenge expires (300 s, section 8).
 */
import type { AccountsFacade } from '../../generated/accounts/operations.js';
import type { CallOptions } from '../runtime/contract.js';
import { ContratoError, ResponseValidationError } from '../runtime/errors.js';

type KeyRecord = Awaited<ReturnType<AccountsFacade['keys']['create']>>;

export interface KeyChallengeInput {
  readonly keyType: 'EMAIL' | 'PHONE';
  /** The e-mail address, or the phone in E.164 form (+5511987654321). */
  readonly key: string;
  /** Returns the code the platform sent to the contact; told when the challenge expires. */
  readonly getCode: (challenge: {
    readonly keyType: 'EMAIL' | 'PHONE';
    readonly key: string;
    readonly expiresAt: Date;
    readonly signal: AbortSignal;
  }) => Promise<string>;
  readonly signal?: AbortSignal;
  /** The present instant (tests inject it). */
  readonly now?: () => number;
}

export type KeyChallengeFlow = (input: KeyChallengeInput, options?: CallOptions) => Promise<KeyRecord>;

/** The challenge expired before a code was supplied; start again (a new challenge invalidates the old hash). */
export class ChallengeExpiredError extends ContratoError {
  override readonly name = 'ChallengeExpiredError';
}

/** The challenge lifetime when the answer omits it (section 8: OTP validity 300 seconds). */
const defaultChallengeSeconds = 300;
/** Time kept in hand for the creation request itself to arrive before the expiry. */
const sendMarginMs = 2_000;

export function createKeyWithChallenge(facade: AccountsFacade): KeyChallengeFlow {
  return async (input, options) => {
    const now = input.now ?? Date.now;
    const { keyType, key } = input;
    const started = now();
    const challenge = await facade.keys.challenge(
      { body: { keyType, key } },
      { ...options, ...(input.signal ? { signal: input.signal } : {}) },
    );
    const validationHash = challenge.validationHash;
    if (typeof validationHash !== 'string') {
      throw new ResponseValidationError('keys.challenge', 200, [
        { pointer: '/validationHash', rule: 'required', message: 'the challenge answer carries no validationHash' },
      ]);
    }
    const seconds = typeof challenge.expiresIn === 'number' && challenge.expiresIn > 0 ? challenge.expiresIn : defaultChallengeSeconds;
    const expiresAt = started + seconds * 1000;
    const expired = new AbortController();
    const timer = setTimeout(
      () =>
        expired.abort(
          new ChallengeExpiredError(`the ${keyType} challenge for this key expired after ${seconds} s before a code was supplied`, {
            operationId: 'keys.challenge',
          }),
        ),
      Math.max(0, expiresAt - sendMarginMs - now()),
    );
    const signal = input.signal ? AbortSignal.any([input.signal, expired.signal]) : expired.signal;
    let code: string;
    try {
      code = await Promise.race([
        input.getCode({ keyType, key, expiresAt: new Date(expiresAt), signal }),
        new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
    } finally {
      clearTimeout(timer);
    }
    if (now() > expiresAt - sendMarginMs) {
      throw new ChallengeExpiredError(`the ${keyType} challenge expired (${seconds} s) before the code arrived; request a new challenge`, {
        operationId: 'keys.challenge',
      });
    }
    return facade.keys.create(
      { body: { keyType, key, validationHash, validationCode: code } },
      { ...options, ...(input.signal ? { signal: input.signal } : {}) },
    );
  };
}
