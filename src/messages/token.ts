/**
 * The login of interface C (section 5.7), whose path and shapes are not shown: the token comes back in a
 * `svc-token` header or member of the answer, and lasts an assumed lifetime (renewed earlier on any 401).
 */
import type { ClientCredentials, TokenRequest } from '../runtime/token-request.js';
import { member, text } from '../runtime/token-request.js';

export interface MessagesLoginOptions extends ClientCredentials {
  /** Path of the login (not shown by the interface specification; default /login). */
  readonly loginPath?: string;
  /** How long a svc-token lasts (not shown; default 3600 s, renewed earlier on any 401). */
  readonly tokenLifetimeSeconds?: number | undefined;
}

export function messagesLoginRequest(baseUrl: string, options: MessagesLoginOptions): TokenRequest {
  return {
    name: 'messages',
    request: {
      method: 'POST',
      url: `${baseUrl}${options.loginPath ?? '/login'}`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ clientId: options.clientId, clientSecret: options.clientSecret }),
    },
    secrets: [options.clientSecret],
    read: (body, headers) => ({
      accessToken:
        headers.get('svc-token') ?? (text(member(body, 'svc-token')) || text(member(body, 'svcToken')) || text(member(body, 'token'))),
      expiresIn: options.tokenLifetimeSeconds ?? 3600,
    }),
  };
}
