/**
 * Interface B, the Pix receiving API (the Central Bank's API Pix as this platform serves it), and its
 * payload locations (a second document: the JWS a dynamic QR code points to, read without a token).
 */
import type { ClientOptions } from '../runtime/client-options.js';
import { type DocumentModules, documentModules, type InterfaceDefinition } from '../runtime/definition.js';
import { pixTokenRequest } from './token.js';

/** Options of the pix client; `baseUrl` is `{qr_base_url}` (with its /v2). */
export interface PixClientOptions extends ClientOptions {
  /** Scopes to ask for (space-separated, e.g. "cob.read cob.write"); the credential's when omitted. */
  readonly scope?: string;
}

export const loadPixLocation = (): Promise<DocumentModules> =>
  documentModules(import('../../generated/pix-location/operations.js'), import('../../generated/pix-location/validators.js'));

export const pixDefinition: InterfaceDefinition<PixClientOptions> = {
  name: 'pix',
  letter: 'B',
  title: 'Pix receiving API',
  address: '{qr_base_url}',
  documents: [
    {
      name: 'pix',
      identifier: 'pix',
      title: 'Pix receiving API',
      mockPort: 4012,
      load: () =>
        documentModules(
          import('../../generated/pix/operations.js'),
          import('../../generated/pix/validators.js'),
          import('./checks.js').then((module) => module.pixChecks),
        ),
    },
    {
      name: 'pix-location',
      identifier: 'pixLocation',
      title: 'Pix payload locations',
      mockPort: 4015,
      // Read through `client.locations` by the URL a QR code carries, not by a facade method.
      sandbox: { readers: { 'cobPayload.get': 'cob', 'cobvPayload.get': 'cobv', 'rec.getPayload': 'rec' } },
      load: loadPixLocation,
    },
  ],
  client: {
    optionNames: ['scope'],
    credentials: ({ clientId, clientSecret }) => ({ clientId, clientSecret }),
    // The API Pix publishes no rate limits for this platform: the limiter is off unless asked for.
    tokenRequest: (baseUrl, options) => pixTokenRequest(baseUrl, options),
  },
};
