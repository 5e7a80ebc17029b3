/**
 * BaaS-scope operations of the accounts sandbox with the package's client, strict on both sides: the
 * partner's child accounts (owner never listed), onboardings and their images (allowed in statuses 0 and
 * 1 only), and credentials issued for a child account that log in at once and operate it with the scopes
 * granted (section 4.3: never for the owner, only for active enabled accounts, at most 10 each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsClient, ConfigurationError } from '../../src/accounts/index.js';
import { operationTable } from '../../src/accounts/index.js';
import { onboardingHandlers } from '../../src/sandbox/accounts/baas.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { AccountsState } from '../../src/sandbox/accounts/state.js';
import { SandboxProblem, type SandboxRequest } from '../../src/sandbox/contract.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsConnector, closeAll, control, expectNoNewDrifts, problemOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let baas: AccountsClient;
const clients: AccountsClient[] = [];
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const connect = accountsConnector(() => sandbox, clients);

beforeAll(async () => {
  sandbox = await startSeeded('accounts-baas', [accountsSandbox]);
  baas = connect('baas_sandbox');
});
afterAll(() => closeAll(sandbox, clients));
expectNoNewDrifts(() => sandbox);

describe('child accounts (sections 2.4 and 4.3)', () => {
  it('lists the child accounts without the owner, filtered and paged; reads one; the owner or a stranger is 404', async () => {
    const all = await baas.childAccounts.list();
    expect(all.data?.map((account) => account.id)).toEqual([2001, 2002, 2003]);
    expect(all.data?.map((account) => account.person?.document)).toEqual(['52998224725', '11222333000181', '39053344705']);
    const page = await baas.childAccounts.list({ query: { page: 2, perPage: 2 } });
    expect(page).toMatchObject({ meta: { total: 3, limit: 2, offset: 2 }, data: [{ id: 2003 }] });
    expect((await baas.childAccounts.list({ query: { status: 0 } })).data?.map((account) => account.id)).toEqual([2003]);
    expect((await baas.childAccounts.list({ query: { document: '11222333000181' } })).data?.map((account) => account.id)).toEqual([2002]);
    expect((await baas.childAccounts.get({ path: { id: 2001 } })).data).toMatchObject({ id: 2001, person: { type: 'NATURAL_PERSON' } });
    for (const id of [2000, 1001]) expect((await problemOf(baas.childAccounts.get({ path: { id } }))).status).toBe(404);
  });
});

describe('onboarding (sections 3 and 4.3)', () => {
  const person = {
    name: 'Beatriz Nunes Prado',
    socialName: 'Bia Prado',
    document: '86288366757',
    phone: '+5511987654321',
    address: { zipCode: '01310100', address: 'Avenida Paulista', number: '1000', district: 'Bela Vista' },
  };

  it('opens an onboarding awaiting approval (1), read back and listed; the same person again is 422', async () => {
    const created = await baas.onboarding.create({ body: { accountType: 'NATURAL_PERSON', person } });
    expect(created).toMatchObject({ status: 1, id: expect.any(String) });
    const read = await baas.onboardings.get({ path: { id: created.id! } });
    expect(read.data).toMatchObject({ status: 1, person: { name: person.name, tradeName: 'Bia Prado' }, address: { complement: null } });
    expect((await baas.onboardings.list({ query: { status: 1 } })).data?.map((entry) => entry.id)).toContain(created.id);
    expect((await baas.onboardings.list({ query: { status: 0 } })).data).toEqual([]);
    expect((await problemOf(baas.onboarding.create({ body: { person } }))).errorType).toBe('onboarding-rejected');
    const holder = await problemOf(baas.onboarding.create({ body: { person: { ...person, document: '52998224725' } } }));
    expect(holder.status).toBe(422);
  });

  it('takes images through the client (multipart, the file part checked as binary)', async () => {
    const { id } = await baas.onboarding.create({ body: { person: { ...person, document: '12345678909' } } });
    expect((await baas.onboarding.uploadImage({ path: { id: id! }, body: { type: 'FRONT', file: png } })).image?.type).toBe('FRONT');
  });

  it('takes images while 0 or 1; after the operators move it, 422; not an image 400; an unknown onboarding 404 (the handler itself)', async () => {
    const { id } = await baas.onboarding.create({ body: { person: { ...person, document: '11144477735' } } });
    const upload = onboardingHandlers['onboarding.uploadImage']!;
    const state = sandbox.stateOf<AccountsState>('accounts');
    const request = (onboarding: string, type: string, bytes: Uint8Array): SandboxRequest => ({
      operationId: 'onboarding.uploadImage',
      info: operationTable['onboarding.uploadImage'] as never,
      path: { id: onboarding },
      query: {},
      headers: {},
      body: { type, file: { filename: 'x', contentType: 'image/png', size: bytes.length, bytes } },
      principal: { clientId: 'baas_sandbox', scopes: ['baas.onboarding.write'] },
      baseUrl: sandbox.urlOf('accounts'),
    });
    const refusal = async (call: () => unknown) => {
      const error = await Promise.resolve()
        .then(call)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxProblem);
      return error as SandboxProblem;
    };
    const uploaded = (await upload(request(id!, 'FRONT', png), state, sandbox.env)) as { status: number; body: any };
    expect(uploaded).toMatchObject({ status: 200, body: { image: { type: 'FRONT', url: expect.stringContaining(id!) } } });
    expect((await refusal(() => upload(request(id!, 'BACK', Uint8Array.from([1, 2, 3])), state, sandbox.env))).status).toBe(400);
    await control(sandbox, '/accounts/onboardingStatus', { id, status: 2 });
    const refused = await refusal(() => upload(request(id!, 'BACK', png), state, sandbox.env));
    expect(refused).toMatchObject({ status: 422, errorType: 'onboarding-image-not-allowed' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await refusal(() => upload(request(unknown, 'FRONT', png), state, sandbox.env))).status).toBe(404);
    expect((await problemOf(baas.onboardings.get({ path: { id: unknown } }))).status).toBe(404);
  });
});

describe('credentials (sections 2.4 and 4.3)', () => {
  it('a credential issued for a child account logs in and operates it with the scopes granted only', async () => {
    const issued = await baas.credentials.create({ body: { accountId: 2001, description: 'ERP', scopes: ['account.read', 'pix.read'] } });
    expect(issued).toMatchObject({ clientId: expect.any(String), clientSecret: expect.any(String), description: 'ERP', allowedIps: [] });
    const child = connect(issued.clientId!, { clientSecret: issued.clientSecret! });
    const own = (await child.balance.get()).data![0]!.balanceAmount;
    expect(own).toEqual((await connect('baas_sandbox', { accountId: 2001 }).balance.get()).data![0]!.balanceAmount);
    expect((await child.keys.list()).data).toEqual([]);
    expect((await problemOf(child.keys.create({ body: { keyType: 'EVP' } }))).status).toBe(403);
  });

  it('never for the owner (403), nor a closed account (422), at most 10 per account (422); account credentials are refused', async () => {
    expect((await problemOf(baas.credentials.create({ body: { accountId: 2000, scopes: ['pix.read'] } }))).status).toBe(403);
    expect((await problemOf(baas.credentials.create({ body: { accountId: 2003, scopes: ['pix.read'] } }))).errorType).toBe(
      'account-not-eligible',
    );
    for (let index = 0; index < 10; index += 1) await baas.credentials.create({ body: { accountId: 2002, scopes: ['pix.read'] } });
    expect((await problemOf(baas.credentials.create({ body: { accountId: 2002, scopes: ['pix.read'] } }))).errorType).toBe(
      'credential-limit-reached',
    );
    await expect(connect('sandbox-account').credentials.create({ body: { accountId: 2002, scopes: ['pix.read'] } })).rejects.toThrow(
      ConfigurationError,
    );
  });
});
