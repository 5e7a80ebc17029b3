/** The pix client against a real Prism process: every operation and every response example. */
import { createPixClient } from '../../src/pix/index.js';
import { contractSuite } from '../helpers/contract-suite.js';

contractSuite('pix', (baseUrl) =>
  createPixClient({
    baseUrl,
    clientId: 'pix-client-7f3c',
    clientSecret: 'mock-secret-pix',
    responseValidation: 'strict',
    retry: { maxRetries: 0 },
  }),
);
