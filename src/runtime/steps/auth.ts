/**
 * Presents the client's credentials: the access token on secured operations, in the header the spec's
 * security scheme names (`Authorization: Bearer` for OAuth 2.0 and HTTP bearer, the header of an API-key
 * scheme otherwise), or the client id and secret on an operation secured with HTTP Basic. On a 401 the
 * token is renewed once and the call sent once more (section 7.1), which is not counted as a retry.
 */
import { basicCredentials, ConnectionError, ContratoError, HttpError, withCallContext } from '../errors.js';
import { type Call, contextOf, type Outcome, type Step } from '../pipeline.js';
import { retryableStatuses } from '../retry.js';
import type { TokenCache } from '../token-cache.js';
import type { ClientCredentials } from '../token-request.js';

export type { ClientCredentials };

export interface AuthServices {
  readonly tokens?: TokenCache | undefined;
  /** Sent with HTTP Basic on operations whose security scheme is `http`/`basic`. */
  readonly credentials?: ClientCredentials | undefined;
  readonly onRenewal?: (operationId: string) => void;
}

function withToken(call: Call, token: string): Call {
  const header = call.info.tokenHeader;
  return { ...call, headers: { ...call.headers, ...(header ? { [header]: token } : { Authorization: `Bearer ${token}` }) } };
}

const carriesAuthorization = (call: Call): boolean =>
  Object.keys({ ...call.options?.headers, ...call.headers }).some((name) => name.toLowerCase() === 'authorization');

/** A token that could not be had: the call was not sent, so it may be tried again whatever its method. */
async function tokenOrFailure(tokens: TokenCache, call: Call): Promise<string | Outcome> {
  try {
    return await tokens.get(call.state.telemetry);
  } catch (error) {
    if (!(error instanceof ContratoError)) throw error;
    const transient = error instanceof ConnectionError || (error instanceof HttpError && retryableStatuses.has(error.status));
    return {
      kind: 'failure',
      // Said in the message: the call itself never left, whatever the token request's error says.
      error: withCallContext(error, contextOf(call), `${call.info.operationId} was not sent`),
      retryable: transient,
      beforeSending: true,
      maybeExecuted: false,
    };
  }
}

export function authStep(services: AuthServices): Step {
  return {
    name: 'auth',
    async run(call, next) {
      const { tokens, credentials } = services;
      if (call.info.basicAuth && credentials && !carriesAuthorization(call)) {
        const basic = `Basic ${basicCredentials(credentials.clientId, credentials.clientSecret)}`;
        return next({ ...call, headers: { ...call.headers, Authorization: basic } });
      }
      if (!call.info.secured || !tokens) return next(call);
      // A valid cached token is taken as it is; only a renewal waits.
      const token = tokens.fresh() ?? (await tokenOrFailure(tokens, call));
      if (typeof token !== 'string') return token;
      const outcome = await next(withToken(call, token));
      if (outcome.kind !== 'answer' || outcome.answer.status !== 401) return outcome;
      // Revoked or expired early: renew once and send once more.
      tokens.invalidate(token);
      services.onRenewal?.(call.info.operationId);
      call.state.telemetry?.resending('401');
      const renewed = await tokenOrFailure(tokens, call);
      if (typeof renewed !== 'string') return renewed;
      call.state.attempts += 1;
      return next(withToken(call, renewed));
    },
  };
}
