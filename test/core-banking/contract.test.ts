/** The core banking client against a real Prism process: every operation and every response example. */
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import { contractSuite } from '../helpers/contract-suite.js';

contractSuite('core-banking', (baseUrl) =>
  createCoreBankingClient({
    baseUrl,
    clientId: 'baas_7f3c2e',
    clientSecret: 'mock-secret',
    responseValidation: 'strict',
    retry: { maxRetries: 0 },
    rateLimit: false,
  }),
);
