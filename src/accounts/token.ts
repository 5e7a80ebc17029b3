/**
 * The accounts token request (section 5.5): JSON camelCase clientId/clientSecret/grantType(/scope). Its
 * path is the operation table's `auth.token` route (provisional: 9.4 says authentication was unified).
 */
import type { ClientCredentials, TokenRequest } from '../runtime/token-request.js';
import { member, seconds, text } from '../runtime/token-request.js';

/**
 * Section 5.5 gives `expiresAt` as an integer without saying whether it is an instant or a lifetime:
 * values that look like a Unix time (seconds or milliseconds) are read as the instant, others as seconds.
 */
export function lifetimeFromExpiresAt(expiresAt: number, now: number = Date.now()): number {
  if (expiresAt > 1e12) return (expiresAt - now) / 1000;
  if (expiresAt > 1e9) return expiresAt - now / 1000;
  return expiresAt;
}

export function accountsTokenRequest(
  baseUrl: string,
  credentials: ClientCredentials & { readonly scope?: string | undefined; readonly tokenPath?: string },
): TokenRequest {
  return {
    name: 'accounts',
    request: {
      method: 'POST',
      url: `${baseUrl}${credentials.tokenPath ?? '/auth/token'}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        grantType: 'client_credentials',
        ...(credentials.scope ? { scope: credentials.scope } : {}),
      }),
    },
    secrets: [credentials.clientSecret],
    read: (body) => ({
      accessToken: text(member(body, 'accessToken')),
      expiresIn: lifetimeFromExpiresAt(seconds(member(body, 'expiresAt'))),
    }),
  };
}
