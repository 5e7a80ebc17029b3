/**
 * The messages client against a real Prism process serving the HTTP shell of interface C: every
 * operation and every example, the message bodies coming from their schema files' example sets.
 */
import { afterAll, beforeAll } from 'vitest';
import { createMessagesClient } from '../../src/messages/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { contractSuite } from '../helpers/contract-suite.js';

let pki: TestPki;
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.dispose());

contractSuite('messages', (baseUrl) =>
  createMessagesClient({
    baseUrl,
    login: { clientId: 'spi-padaria', clientSecret: 'mock-secret-messages' },
    tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase },
    responseValidation: 'strict',
    retry: { maxRetries: 0 },
  }),
);
