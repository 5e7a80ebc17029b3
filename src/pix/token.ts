/** The API Pix token request (section 5.6): POST /oauth/token, OAuth 2.0 client credentials with HTTP Basic client authentication. */
import { basicCredentials } from '../runtime/errors.js';
import type { ClientCredentials, TokenRequest } from '../runtime/token-request.js';
import { member, seconds, text } from '../runtime/token-request.js';

export function pixTokenRequest(baseUrl: string, credentials: ClientCredentials & { readonly scope?: string | undefined }): TokenRequest {
  const basic = basicCredentials(credentials.clientId, credentials.clientSecret);
  const userPass = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`;
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(credentials.scope ? { scope: credentials.scope } : {}) });
  return {
    name: 'pix',
    request: {
      method: 'POST',
      url: `${baseUrl}/oauth/token`,
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    },
    // The Basic value, and its decoded forms as gateways print them (percent-encoded or not).
    secrets: [credentials.clientSecret, basic, userPass, `${credentials.clientId}:${credentials.clientSecret}`],
    read: (body) => ({ accessToken: text(member(body, 'access_token')), expiresIn: seconds(member(body, 'expires_in')) }),
  };
}
