/** The core banking token request (section 5.4): POST /auth/token, JSON snake_case client credentials. */
import type { ClientCredentials, TokenRequest } from '../runtime/token-request.js';
import { member, seconds, text } from '../runtime/token-request.js';

export function coreBankingTokenRequest(baseUrl: string, credentials: ClientCredentials): TokenRequest {
  return {
    name: 'core-banking',
    request: {
      method: 'POST',
      url: `${baseUrl}/auth/token`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: credentials.clientId, client_secret: credentials.clientSecret, grant_type: 'client_credentials' }),
    },
    secrets: [credentials.clientSecret],
    read: (body) => ({ accessToken: text(member(body, 'access_token')), expiresIn: seconds(member(body, 'expires_in')) }),
  };
}
