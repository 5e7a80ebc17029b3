/** Interface D, the core banking administrative API (section 4.10): its documents, token request and published limits. */
import type { ClientOptions } from '../runtime/client-options.js';
import { documentModules, type InterfaceDefinition } from '../runtime/definition.js';
import type { RateLimit } from '../runtime/rate-limiter.js';
import { coreBankingTokenRequest } from './token.js';

/** Section 8: 1000 requests per minute and 10000 per hour. */
export const coreBankingRateLimits: readonly RateLimit[] = [
  { limit: 1000, intervalMs: 60_000 },
  { limit: 10_000, intervalMs: 3_600_000 },
];

export const coreBankingDefinition: InterfaceDefinition<ClientOptions> = {
  name: 'core-banking',
  letter: 'D',
  title: 'Core banking API',
  address: '{banking_base_url}',
  documents: [
    {
      name: 'core-banking',
      identifier: 'coreBanking',
      title: 'Core banking API',
      mockPort: 4014,
      load: () =>
        documentModules(
          import('../../generated/core-banking/operations.js'),
          import('../../generated/core-banking/validators.js'),
          import('./checks.js').then((module) => module.coreBankingChecks),
        ),
    },
  ],
  client: {
    optionNames: [],
    credentials: ({ clientId, clientSecret }) => ({ clientId, clientSecret }),
    tokenRequest: (baseUrl, options) => coreBankingTokenRequest(baseUrl, options),
    defaultRateLimits: coreBankingRateLimits,
  },
  // Its seeded credential keeps the short name the guides print.
  sandbox: {
    credentials: [{ clientId: 'sandbox-core' }],
    // sandbox-core is a BaaS caller; the list of bankarization applications is for account callers only (4.10).
    clientByOperation: { 'bankarizationApplications.list': { clientId: 'sandbox-account' } },
  },
};
