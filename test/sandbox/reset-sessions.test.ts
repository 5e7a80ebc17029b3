/**
 * A reset empties the sandbox's state, not its callers' sessions: a client made before `POST /_sandbox/reset`
 * goes on with the token it holds. Interface B declares no 401 (an unknown token is its 403 AcessoNegado), so a
 * Pix client could not tell it had to renew; the library's `beforeEach(reset)` pattern depends on this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxClientOf } from '../../src/runtime/definition.js';
import { findDefinition } from '../../src/interfaces.js';
import type { PixClient } from '../../src/pix/index.js';
import type { AccountsClient } from '../../src/accounts/index.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsClientOf, closeAll, control, pixClientOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let pix: PixClient;
let accounts: AccountsClient;

beforeAll(async () => {
  sandbox = await startSeeded('reset-sessions', sandboxModules);
  pix = pixClientOf(sandbox);
  const client = sandboxClientOf(findDefinition('accounts')!);
  accounts = accountsClientOf(sandbox, client.clientId, client.options ?? {});
});
afterAll(async () => {
  await closeAll(sandbox, [pix, accounts]);
});

describe('a reset keeps the tokens it issued', () => {
  it.each([
    [
      'pix',
      () =>
        pix.cob.list({
          query: { inicio: new Date(Date.now() - 3_600_000).toISOString(), fim: new Date(Date.now() + 3_600_000).toISOString() },
        }),
    ],
    ['accounts', () => accounts.balance.get({})],
  ] as const)('a %s client made before the reset goes on after it, with the same token', async (_name, call) => {
    await call();
    await control(sandbox, '/reset', {});
    await expect(call()).resolves.toBeDefined();
    await control(sandbox, '/reset', { seed: 'another-seed' });
    await expect(call()).resolves.toBeDefined();
  });
});
