/**
 * Interface C, the Pix message exchange: its document, the login that issues the `svc-token` (presented
 * as the spec's API-key scheme says), and the participant's certificate it cannot work without.
 */
import type { ClientOptions } from '../runtime/client-options.js';
import { documentModules, type InterfaceDefinition } from '../runtime/definition.js';
import { ConfigurationError } from '../runtime/errors.js';
import type { TlsOptions } from '../runtime/transport.js';
import { messagesLoginRequest } from './token.js';

export interface MessagesClientOptions extends Omit<ClientOptions, 'clientId' | 'clientSecret' | 'tls'> {
  /** `{cloud_url}`, handed to each customer separately (decision 7): no default. */
  readonly baseUrl: string;
  /** Credential of the login that issues the svc-token (its shape is not shown; see specs/messages). */
  readonly login: { readonly clientId: string; readonly clientSecret: string; readonly tokenLifetimeSeconds?: number };
  /** The participant's client certificate (section 1: a PFX must be installed to reach interface C). */
  readonly tls: TlsOptions;
}

export const messagesDefinition: InterfaceDefinition<MessagesClientOptions> = {
  name: 'messages',
  letter: 'C',
  title: 'Pix message exchange API',
  address: '{cloud_url}',
  documents: [
    {
      name: 'messages',
      identifier: 'messages',
      title: 'Pix message exchange API',
      mockPort: 4013,
      load: () => documentModules(import('../../generated/messages/operations.js'), import('../../generated/messages/validators.js')),
    },
  ],
  client: {
    optionNames: ['login'],
    checkOptions: (options) => {
      const tls = options.tls as Partial<{ pfx: unknown; cert: unknown; key: unknown }> | undefined;
      if (!tls || !(tls.pfx || (tls.cert && tls.key))) {
        throw new ConfigurationError(
          "interface C needs the participant's client certificate: pass tls: { pfx, passphrase } (or { cert, key })",
        );
      }
    },
    credentials: ({ login }) => ({ clientId: login.clientId, clientSecret: login.clientSecret }),
    tokenRequest: (baseUrl, options, operations) =>
      messagesLoginRequest(baseUrl, { ...options.login, loginPath: operations['auth.login']?.path ?? '/login' }),
  },
  // The seeded `sandbox-messages` (no scopes: a svc-token session) goes in `login`, beside the participant's certificate.
  sandbox: { client: { login: true, pfx: 'participant.pfx' } },
};
