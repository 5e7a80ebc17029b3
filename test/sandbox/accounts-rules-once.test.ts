/**
 * The accounts sandbox holds no copy of a rule the package exports: an onboarding image is judged by
 * checkImageFile (JPG or PNG, at most 10 MB) and checkImageUpload (statuses 0 and 1), a billet payment by
 * checkBilletPayable and checkBilletPaymentAmount — the functions the client runs — so the sandbox accepts
 * what it accepted before and refuses what it refused, with the same status and type, in the words of the
 * client's check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsClient, checkBilletPayable, checkBilletPaymentAmount, checkImageUpload } from '../../src/accounts/index.js';
import { checkImageFile, maxImageBytes } from '../../src/accounts/onboarding-image.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsConnector, accountsToken, closeAll, control, expectNoNewDrifts, problemOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let baas: AccountsClient;
let account: AccountsClient;
const clients: AccountsClient[] = [];
const connect = accountsConnector(() => sandbox, clients);

beforeAll(async () => {
  sandbox = await startSeeded('accounts-rules-once', [accountsSandbox]);
  baas = connect('baas_sandbox');
  account = connect('sandbox-account');
});
afterAll(() => closeAll(sandbox, clients));
expectNoNewDrifts(() => sandbox);

const pngHead = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpegHead = [0xff, 0xd8, 0xff, 0xe0];
/** A file of `size` bytes starting with `head`. */
const file = (head: readonly number[], size: number): Uint8Array => {
  const bytes = new Uint8Array(size);
  bytes.set(head);
  return bytes;
};

/** A new onboarding of the BaaS partner for the person with this CPF (none of the seeded accounts'), awaiting approval (status 1). */
async function onboarding(document: string): Promise<string> {
  const person = { name: 'Beatriz Nunes Prado', document, phone: '+5511987654321' };
  const { id } = await baas.onboarding.create({ body: { accountType: 'NATURAL_PERSON', person } });
  return id!;
}

/** POST /onboarding/{id}/images past the client (which checks the file first): the status and the JSON answer. */
async function upload(id: string, bytes: Uint8Array): Promise<{ status: number; body: Record<string, any> }> {
  const form = new FormData();
  form.append('type', 'FRONT');
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'front');
  const answer = await fetch(`${sandbox.urlOf('accounts')}/onboarding/${id}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await accountsToken(sandbox, 'baas_sandbox')}` },
    body: form,
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

describe('onboarding images: checkImageFile, then checkImageUpload', () => {
  let id = '';
  beforeAll(async () => {
    id = await onboarding('86288366757');
  });

  const wordsOf = (bytes: Uint8Array): string =>
    checkImageFile(bytes.subarray(0, 8), bytes.length)
      .map((issue) => `file: ${issue.message}`)
      .join('; ');

  it.each([
    { given: 'a PNG', bytes: () => file(pngHead, 64), want: { status: 200, extension: 'png' } },
    { given: 'a JPG', bytes: () => file(jpegHead, 64), want: { status: 200, extension: 'jpg' } },
    { given: 'a PNG of exactly 10 MB', bytes: () => file(pngHead, maxImageBytes), want: { status: 200, extension: 'png' } },
    { given: 'neither a JPG nor a PNG', bytes: () => Uint8Array.from([1, 2, 3]), want: { status: 400, type: 'invalid-parameters' } },
    {
      given: 'a PNG one byte above 10 MB',
      bytes: () => file(pngHead, maxImageBytes + 1),
      want: { status: 400, type: 'invalid-parameters' },
    },
  ])(
    '$given: $want.status',
    async ({ bytes, want }) => {
      const sent = bytes();
      const answer = await upload(id, sent);
      expect(answer.status).toBe(want.status);
      if (want.status === 200) expect(answer.body.image.url).toMatch(new RegExp(`/images/front\\.${want.extension}$`));
      else expect([answer.body.type, answer.body.detail]).toEqual([expect.stringMatching(new RegExp(`/${want.type}$`)), wordsOf(sent)]);
    },
    30_000,
  );

  it('an onboarding moved out of 0 and 1 is refused with 422 in the words of checkImageUpload, the file checked first', async () => {
    const moved = await onboarding('12345678909');
    await control(sandbox, '/accounts/onboardingStatus', { id: moved, status: 2 });
    const [want] = checkImageUpload({ status: 2 });
    const refused = await upload(moved, file(pngHead, 64));
    expect([refused.status, refused.body.type, refused.body.detail]).toEqual([
      422,
      expect.stringMatching(/\/onboarding-image-not-allowed$/),
      want!.message,
    ]);
    expect((await upload(moved, Uint8Array.from([1, 2, 3]))).status).toBe(400);
    await control(sandbox, '/accounts/onboardingStatus', { id: moved, status: 0 });
    expect((await upload(moved, file(pngHead, 64))).status).toBe(200);
  });
});

describe('billet payments: checkBilletPayable and checkBilletPaymentAmount', () => {
  it.each([
    { given: 'the updated value', amount: 80, paid: (total: number) => total, want: { status: 200 } },
    { given: 'no amount (the updated value is charged)', amount: 80, paid: () => undefined, want: { status: 200 } },
    {
      given: 'an amount other than the updated value',
      amount: 80,
      paid: (total: number) => total - 0.1,
      want: { status: 422, type: 'billet-amount-mismatch' },
    },
    {
      given: 'a billet whose value the payer changes',
      amount: 0,
      paid: () => undefined,
      want: { status: 422, type: 'billet-value-changeable' },
    },
  ])('$given: $want.status', async ({ amount, paid, want }) => {
    const billet = await control(sandbox, '/accounts/billet', { amount });
    const info = await account.billets.info({ body: { billetCode: billet.barcode } });
    const asked = paid(info.totalUpdated!);
    const payment = asked === undefined ? {} : { payment: { amount: asked } };
    const call = account.billets.payByDigitableLine({ body: { digitableCode: billet.digitableCode, description: 'Regras', ...payment } });
    if (want.status === 200) {
      expect((await call).payment?.amount).toBe(info.totalUpdated);
      return;
    }
    const [words] = [...checkBilletPayable(info), ...checkBilletPaymentAmount(info, payment)];
    const problem = await problemOf(call);
    expect([problem.status, problem.errorType, problem.detail]).toEqual([want.status, want.type, words!.message]);
  });
});
