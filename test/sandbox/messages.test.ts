/**
 * The messages sandbox (interface C) as a participant uses it, with the package's own client (svc-token
 * login, typed sends, the lossless poller), every answer checked strictly against the contract: a pacs.008
 * sent comes back as a pacs.002 ACSP on the long-poll queue, or RJCT with the code the sandbox was told to
 * give; a consumer restarting from its stored cursor gets nothing twice and loses nothing; an empty poll
 * is held until a message arrives; 401 without svc-token; the key directory answers from state.
 */
import { examplePacs008 } from '../helpers/pacs008.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/formats/brcode.js';
import { AuthError, createMessagesClient, HttpError, type MessagesClient } from '../../src/messages/index.js';
import { createMessagesSandbox, messagesSandbox } from '../../src/sandbox/messages/index.js';
import { seededMessages } from '../../src/sandbox/messages/seed.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { closeAll, control, expectNoNewDrifts, startSeeded } from '../helpers/sandbox.js';

type Json = Record<string, any>;
let pki: TestPki;
let sandbox: RunningSandbox;
let client: MessagesClient;

const clientFor = (baseUrl: string, clientSecret = 'sandbox-secret', responseValidation: 'strict' | 'off' = 'strict'): MessagesClient =>
  // The sandbox speaks plain http on loopback; the client still insists on a certificate (section 1), unused there.
  createMessagesClient({
    baseUrl,
    login: { clientId: 'sandbox-messages', clientSecret },
    tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase },
    responseValidation,
    retry: { maxRetries: 0 },
  });

beforeAll(async () => {
  pki = createTestPki();
  sandbox = await startSeeded('messages', [messagesSandbox]);
  client = clientFor(sandbox.urlOf('messages'));
  // A fresh sandbox holds what other participants sent (seed.ts): the tests start after it.
  expect((await take(seededMessages.length)).map((message) => message.messageType)).toEqual(seededMessages.map(({ message }) => message));
});
afterAll(async () => {
  await closeAll(sandbox, [client]);
  pki?.dispose();
});
// Every answer of every test is checked against the contract: a drift fails the test that caused it.
expectNoNewDrifts(() => sandbox);

/** The cursor after everything the tests consumed so far: each test takes what it caused, so this is the queue's end. */
let tail = 'start';

/** The next `count` messages from `tail`, with the package's poller; at most 20 polls. */
async function take(count: number): Promise<Json[]> {
  const taken: Json[] = [];
  const stop = new AbortController();
  let polls = 0;
  for await (const batch of client.poll({ cursor: tail, signal: stop.signal, onCursor: (cursor) => void (tail = cursor) })) {
    taken.push(...batch.messages);
    polls += 1;
    if (taken.length >= count || polls >= 20) stop.abort();
  }
  return taken;
}

const payment = (at = new Date()) => examplePacs008(at);

describe('a pacs.008 sent is answered by a pacs.002 on the long-poll queue', () => {
  it('ACSP for its endToEndID, naming the instruction id of the receipt', async () => {
    const sent = payment();
    const receipt = (await client.send('pacs.008', sent)) as Json;
    expect(receipt).toMatchObject({ accepted: true, endToEndID: sent.endToEndID });
    const [report] = await take(1);
    expect(report).toMatchObject({
      messageType: 'pacs.002',
      idInstrucaoOriginal: receipt.idMensagem,
      idFimAFimOriginal: sent.endToEndID,
      situacaoDaTransacao: 'ACSP',
    });
  });

  it('RJCT with the code the sandbox was told to give: the next payment, then one by its endToEndID', async () => {
    await control(sandbox, '/messages/reject', { code: 'AM02' });
    const next = payment();
    await client.send('pacs.008', next);
    const chosen = payment();
    await control(sandbox, '/messages/reject', { endToEndId: chosen.endToEndID, code: 'AC03' });
    const accepted = payment();
    await client.send('pacs.008', accepted);
    await client.send('pacs.008', chosen);
    const reports = await take(3);
    expect(reports.map((report) => [report.idFimAFimOriginal, report.situacaoDaTransacao, report.codigoDeErro])).toEqual([
      [next.endToEndID, 'RJCT', 'AM02'],
      [accepted.endToEndID, 'ACSP', undefined],
      [chosen.endToEndID, 'RJCT', 'AC03'],
    ]);
    await expect(control(sandbox, '/messages/reject', { code: 'XX99' })).rejects.toThrow(
      /400.*code must be one of .*AB09.*got \\"XX99\\"\), as messages#Pacs.002\/codigoDeErro says/,
    );
    await expect(control(sandbox, '/messages/receive', { message: 'pacs.008', body: { ...next, valor: 0 } })).rejects.toThrow(
      /400.*\/valor/,
    );
  });

  it('the same payment sent again replays its receipt without a second pacs.002; another body with its id is a 400', async () => {
    const sent = payment();
    const first = await client.send('pacs.008', sent);
    expect(await client.send('pacs.008', sent)).toEqual(first);
    const error = await client.send('pacs.008', { ...sent, valor: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toMatchObject({ error: 'invalid-request', violations: [{ pointer: '/body/endToEndID' }] });
    await client.send('pacs.008', payment());
    const reports = await take(2);
    expect(reports.filter((report) => report.idFimAFimOriginal === sent.endToEndID)).toHaveLength(1);
  });
});

describe('messages received from another participant', () => {
  it('a pacs.008 received is answered once with a pacs.002 naming its idMensagem; its return gets a pacs.002 back', async () => {
    const body = { ...payment(), participanteDoUsuarioPagador: '60746948', participanteDoUsuarioRecebedor: '00360305' };
    const id = body.endToEndID!;
    await control(sandbox, '/messages/receive', { message: 'pacs.008', body });
    const [received] = await take(1);
    expect(received).toMatchObject({ messageType: 'pacs.008', endToEndID: body.endToEndID, valor: 150.75 });
    const report = { idInstrucaoOriginal: received!.idMensagem, idFimAFimOriginal: id, situacaoDaTransacao: 'ACSP' as const };
    await expect(client.send('pacs.002', { ...report, idInstrucaoOriginal: 'M0000000000' })).rejects.toMatchObject({
      status: 400,
      body: { violations: [{ pointer: '/body/idInstrucaoOriginal' }] },
    });
    await expect(client.send('pacs.002', report)).resolves.toMatchObject({ accepted: true });
    await expect(client.send('pacs.002', report)).rejects.toMatchObject({ status: 400 });
    const back = {
      idFimAFim: id,
      valor: 50,
      codigoDevolucao: 'MD06',
      participanteUsuarioPagador: '60746948',
      participanteUsuarioRecebedor: '00360305',
    };
    const returned = (await client.send('pacs.004', back)) as Json;
    expect(returned.endToEndID).toMatch(/^D00360305\d{12}[a-zA-Z0-9]{11}$/);
    await expect(client.send('pacs.004', { ...back, valor: 100.76 })).rejects.toMatchObject({ status: 400 });
    expect(await take(1)).toMatchObject([{ messageType: 'pacs.002', idFimAFimOriginal: returned.endToEndID, situacaoDaTransacao: 'ACSP' }]);
  });

  it('an empty poll is held until a message arrives, and answers [] with the same cursor when none does', async () => {
    const held = client.messages.poll({ path: { pullNext: tail } }).withResponse();
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await control(sandbox, '/messages/receive', { message: 'pacs.008', body: payment() });
    const { data, response } = await held;
    expect(Date.now() - started).toBeLessThan(900);
    expect(data).toMatchObject([{ messageType: 'pacs.008' }]);
    tail = response.headers.get('svc-pull-next')!;
    const waited = Date.now();
    const empty = await client.messages.poll({ path: { pullNext: tail } }).withResponse();
    expect(Date.now() - waited).toBeGreaterThanOrEqual(900);
    expect(empty.data).toEqual([]);
    expect(empty.response.headers.get('svc-pull-next')).toBe(tail);
  });
});

describe('cursors resume where the consumer left off', () => {
  it('a consumer that stops and starts again from its stored cursor gets nothing twice and loses nothing', async () => {
    const sent: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      const { message } = await control(sandbox, '/messages/receive', { message: 'pacs.008', body: payment() });
      sent.push(message.idMensagem);
    }
    let stored = tail;
    const firstRun: string[] = [];
    const stop = new AbortController();
    for await (const batch of client.poll({ cursor: stored, signal: stop.signal, onCursor: (cursor) => void (stored = cursor) })) {
      firstRun.push(...batch.messages.map((message) => String(message.idMensagem)));
      stop.abort(); // one batch, then stop: the poller saves the cursor of the batch handled and ends
    }
    expect(firstRun.length).toBeGreaterThan(0);
    expect(firstRun.length).toBeLessThan(25);
    // A new consumer (a new client, as after a restart) from the cursor the first one stored.
    const restarted = clientFor(sandbox.urlOf('messages'));
    const secondRun: string[] = [];
    const again = new AbortController();
    let polls = 0;
    for await (const batch of restarted.poll({ cursor: stored, signal: again.signal, onCursor: (cursor) => void (stored = cursor) })) {
      secondRun.push(...batch.messages.map((message) => String(message.idMensagem)));
      polls += 1;
      if (firstRun.length + secondRun.length >= 25 || polls >= 10) again.abort();
    }
    await restarted.close();
    expect([...firstRun, ...secondRun]).toEqual(sent);
    tail = stored;
  });

  it('polling again with an earlier cursor answers the same messages after it, and the same next cursor', async () => {
    const from = tail;
    for (let index = 0; index < 3; index += 1) await control(sandbox, '/messages/receive', { message: 'pacs.008', body: payment() });
    const once = await client.messages.poll({ path: { pullNext: from } }).withResponse();
    const twice = await client.messages.poll({ path: { pullNext: from } }).withResponse();
    expect(twice.data).toEqual(once.data);
    expect(once.data).toHaveLength(3);
    expect(twice.response.headers.get('svc-pull-next')).toBe(once.response.headers.get('svc-pull-next'));
    tail = once.response.headers.get('svc-pull-next')!;
  });
});

describe('svc-token (sections 5.7 and 7.3)', () => {
  it('a call without svc-token, or with one the sandbox did not issue, is 401', async () => {
    for (const headers of [{}, { 'svc-token': 'not-issued' }]) {
      const answer = await fetch(`${sandbox.urlOf('messages')}/messages/pull/start`, { headers });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('a wrong secret is refused at the login with 401', async () => {
    const wrong = clientFor(sandbox.urlOf('messages'), 'not-the-secret');
    const error = await wrong.send('pacs.008', payment()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).status).toBe(401);
    await wrong.close();
  });
});

describe('the key directory (DICT) answers from state', () => {
  const key = 'financeiro@padaria.example.com';
  const entry = {
    Key: key,
    KeyType: 'EMAIL' as const,
    Branch: '0001',
    AccountNumber: '100200300',
    AccountType: 'CACC' as const,
    Type: 'LEGAL_PERSON' as const,
    OpeningDate: '2020-03-02T12:00:00Z',
    Name: 'Padaria Boa Vista Ltda',
    TaxIdNumber: '11222333000181',
    Reason: 'USER_REQUESTED' as const,
  };

  it('a key created is there when read: existence, list, QR code lookup; an update changes it', async () => {
    const created = (await client.send('dict.create-key', entry)) as Json;
    expect(created).toMatchObject({ Key: key, Branch: '0001', Name: 'Padaria Boa Vista Ltda' });
    expect(await client.send('dict.check-keys', { Keys: [{ Key: key }, { Key: 'outra@padaria.example.com' }] })).toEqual({
      Keys: [
        { Key: key, HasEntry: true },
        { Key: 'outra@padaria.example.com', HasEntry: false },
      ],
    });
    const listed = (await client.send('dict.list-keys', { Filter: 'padaria.example' })) as Json;
    expect(listed.Keys.map((found: Json) => found.Key)).toEqual([key]);
    await client.send('dict.update-key', { Reason: 'BRANCH_TRANSFER', Branch: '0002' }, { path: { key } });
    const brCode = buildBrCode({ key, merchantName: 'PADARIA BOA VISTA', merchantCity: 'SAO PAULO', amount: '10.50' });
    const lookup = await client.dictQrCode.lookup({ header: { 'svc-payerid': '52998224725' }, body: { brCode, codMun: '3550308' } });
    expect(lookup).toMatchObject({ Type: 'STATIC', Key: key, Amount: '10.50', Entry: { Branch: '0002' } });
    const again = await client.send('dict.create-key', entry).catch((caught: unknown) => caught);
    expect((again as HttpError).status).toBe(400);
  });

  it('an EVP key is generated; a CPF key must be the holder document', async () => {
    const evp = (await client.send('dict.create-key', { ...entry, Key: undefined, KeyType: 'EVP' } as never)) as Json;
    expect(evp.Key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const cpf = await client
      .send('dict.create-key', { ...entry, Key: '52998224725', KeyType: 'CPF', Type: 'NATURAL_PERSON', TaxIdNumber: '11144477735' })
      .catch((caught: unknown) => caught);
    expect((cpf as HttpError).body).toMatchObject({ violations: [{ pointer: '/body/Key' }] });
  });

  it('a fraud marker repeated with its RequestId is the same marker', async () => {
    const body = {
      FraudMarker: { TaxIdNumber: '52998224725', FraudType: 'APPLICATION_FRAUD', Key: key },
      RequestId: '6f1c1f4e-8a3b-4c2d-9e5f-0a1b2c3d4e5f',
    };
    const first = await client.send('dict.fraud-marker', body as never);
    expect(await client.send('dict.fraud-marker', body as never)).toEqual(first);
  });
});

describe('a cursor the queue never gave', () => {
  it('is a 400 (messages.poll declares none: a gap of the contract, so this sandbox is not strict)', async () => {
    const loose = await startSandbox({ modules: [createMessagesSandbox({ pollWaitMs: 0 })], seed: sandbox.env.random.seed });
    // Not strict either: a strict client refuses the undeclared status before reading the body.
    const looseClient = clientFor(loose.urlOf('messages'), 'sandbox-secret', 'off');
    try {
      const error = await looseClient.messages.poll({ path: { pullNext: 'abc-7' } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 400, body: { error: 'invalid-request', violations: [{ pointer: '/path/pullNext' }] } });
      const fromStart = await looseClient.messages.poll({ path: { pullNext: 'start' } }).withResponse();
      expect(fromStart.data.map((message) => message.messageType)).toEqual(seededMessages.map(({ message }) => message));
      expect(fromStart.response.headers.get('svc-pull-next')).toMatch(new RegExp(`-${seededMessages.length}$`));
    } finally {
      await looseClient.close();
      await loose.stop();
    }
  });
});
