/**
 * The accounts client against a real Prism process: every operation and every response example, as a
 * BaaS credential operating a child account (so x-account-id reaches Prism's header validation). The
 * image upload sends a real PNG, since the client refuses anything else before uploading.
 */
import { createAccountsClient } from '../../src/accounts/index.js';
import { contractSuite } from '../helpers/contract-suite.js';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

contractSuite('accounts', (baseUrl) => {
  const client = createAccountsClient({
    baseUrl,
    clientId: 'baas_padaria-boa-vista',
    clientSecret: 'mock-secret-accounts',
    accountId: 48213,
    responseValidation: 'strict',
    retry: { maxRetries: 0 },
  });
  const upload = client.onboarding.uploadImage;
  // The spec's multipart example stands for a file; send a real image in its place.
  return Object.assign(client, {
    onboarding: {
      ...client.onboarding,
      uploadImage: (args: Parameters<typeof upload>[0], options?: Parameters<typeof upload>[1]) =>
        upload({ ...args, body: { ...args.body, file: png } }, options),
    },
  });
});
