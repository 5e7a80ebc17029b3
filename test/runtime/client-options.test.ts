/**
 * Client options are checked both ways: an unknown option in an object literal does not compile (the
 * `@ts-expect-error` lines below fail `tsc` in npm test if it ever does), and at run time every client
 * refuses it with a ConfigurationError naming the nearest known option.
 */
import { describe, expect, it } from 'vitest';
import { createAccountsClient } from '../../src/accounts/index.js';
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import { createMessagesClient } from '../../src/messages/index.js';
import { createPixClient } from '../../src/pix/index.js';
import { ConfigurationError } from '../../src/runtime/errors.js';
import { createTestPki } from '../helpers/certificates.js';

const common = { baseUrl: 'https://platform.example', clientId: 'client', clientSecret: 'secret-value' };

describe('unknown client options', () => {
  it('are a compile error in an object literal', () => {
    // @ts-expect-error: timeoutMS is not an option (timeoutMs is)
    const literal = () => createCoreBankingClient({ ...common, timeoutMS: 5 });
    expect(literal).toThrow(ConfigurationError);
  });

  it.each([
    {
      client: 'core-banking',
      create: (options: object) => createCoreBankingClient(options as never),
      given: { retries: 3 },
      want: /unknown option retries \(did you mean retry\?\)/,
    },
    {
      client: 'accounts',
      create: (options: object) => createAccountsClient(options as never),
      given: { accountID: 7 },
      want: /unknown option accountID \(did you mean accountId\?\)/,
    },
    {
      client: 'pix',
      create: (options: object) => createPixClient(options as never),
      given: { scopes: 'cob.read' },
      want: /unknown option scopes \(did you mean scope\?\)/,
    },
    {
      client: 'accounts',
      create: (options: object) => createAccountsClient(options as never),
      given: { verbose: true },
      want: /^accounts client: unknown option verbose; known options: /,
    },
  ])('$client refuses $given at run time', ({ create, given, want }) => {
    expect(() => create({ ...common, ...given })).toThrow(ConfigurationError);
    expect(() => create({ ...common, ...given })).toThrow(want);
  });

  it('messages refuses an unknown option too, and takes its own (login, tls)', () => {
    const pki = createTestPki();
    const options = {
      baseUrl: common.baseUrl,
      login: { clientId: 'c', clientSecret: 's' },
      tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase },
    };
    expect(() => createMessagesClient({ ...options, logn: {} } as never)).toThrow(/unknown option logn \(did you mean login\?\)/);
    expect(() => createMessagesClient(options)).not.toThrow();
  });
});
