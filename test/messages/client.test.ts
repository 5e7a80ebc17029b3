/**
 * The messages client over a real HTTPS server with client certificates: typed `send()` checked before
 * sending, directory operations with their path and header, the fraud marker's RequestId kept across a
 * retry, and builders whose output their own schema accepts.
 */
import { examplePacs008 } from '../helpers/pacs008.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageTable } from '../../generated/messages/operations.js';
import { patternDescriptions, validators } from '../../generated/messages/validators.js';
import {
  buildPain013,
  buildReda022,
  ConfigurationError,
  createMessagesClient,
  endToEndId,
  recurrenceId,
  RequestValidationError,
  type MessagesClient,
} from '../../src/messages/index.js';
import { buildBrCode } from '../../src/formats/brcode.js';
import { checkEndToEndId, checkIdRec } from '../../src/formats/pix.js';
import { check, type CompiledValidator } from '../../src/runtime/validation.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer, type HttpsTestServer } from '../helpers/https-server.js';

let pki: TestPki;
let server: HttpsTestServer | undefined;
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.dispose());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function exchange(
  answer: (request: Seen, response: ServerResponse, count: number) => void,
): Promise<{ client: MessagesClient; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = await startMutualTlsServer(pki, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (entry.path === '/login') return response.writeHead(200, { 'content-type': 'application/json', 'svc-token': 'svc-1' }).end('{}');
      seen.push(entry);
      answer(entry, response, seen.length);
    });
  });
  const client = createMessagesClient({
    baseUrl: server.url,
    login: { clientId: 'spi', clientSecret: 'secret' },
    tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase, ca: pki.ca },
    retry: { maxRetries: 1, baseDelayMs: 1 },
  });
  return { client, seen };
}
const ok = (_request: Seen, response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
const isValid = (message: string, payload: unknown): string =>
  check(
    (validators.schemas as Record<string, CompiledValidator>)[(messageTable as Record<string, { schema: string }>)[message]!.schema]!,
    payload,
    '',
    patternDescriptions,
  )
    .map((i) => `${i.pointer}: ${i.message}`)
    .join('\n');

const pacs008 = examplePacs008(new Date('2025-04-10T15:30:00Z'));

describe('messages client', () => {
  it('sends a pacs.008 by name, with the svc-token, to its route', async () => {
    const { client, seen } = await exchange(ok);
    await client.send('pacs.008', pacs008);
    expect(seen.map((s) => [s.method, s.path, s.headers['svc-token']])).toEqual([['POST', '/messages/pacs.008', 'svc-1']]);
    expect(JSON.parse(seen[0]!.body)).toEqual(pacs008);
    await client.close();
  });

  it('refuses an invalid message before sending, naming the field and the rule', async () => {
    const { client, seen } = await exchange(ok);
    const error = await client.send('pacs.008', { ...pacs008, participanteDoUsuarioPagador: '0036' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/\/body\/participanteDoUsuarioPagador: must have at least 8 characters/);
    expect(seen).toEqual([]);
    expect(() => client.send('pacs.999' as 'pacs.008', pacs008)).toThrow(ConfigurationError);
    await client.close();
  });

  it('updates a key by its path and looks up a QR code for a payer', async () => {
    const { client, seen } = await exchange(ok);
    await client.send('dict.update-key', { Reason: 'BRANCH_TRANSFER', Branch: '0002' }, { path: { key: 'financeiro@padaria.com.br' } });
    const brCode = buildBrCode({ key: '+5511987654321', merchantName: 'PADARIA BOA VISTA', merchantCity: 'SAO PAULO', amount: '10.50' });
    await client.dictQrCode.lookup({ header: { 'svc-payerid': '52998224725' }, body: { brCode, codMun: '3550308' } });
    expect(seen.map((s) => [s.method, s.path])).toEqual([
      ['PUT', '/dict/keys/financeiro%40padaria.com.br'],
      ['POST', '/dict/qrcode/lookup'],
    ]);
    expect(seen[1]!.headers['svc-payerid']).toBe('52998224725');
    await client.close();
  });

  it('fills the fraud marker RequestId and resends the same one after a failure', async () => {
    const { client, seen } = await exchange((_request, response, count) =>
      count === 1 ? response.writeHead(503).end() : ok(_request, response),
    );
    await client.dictFraudMarkers.create({
      body: { FraudMarker: { TaxIdNumber: '52998224725', FraudType: 'APPLICATION_FRAUD', Key: '+5511987654321' } } as never,
    });
    const ids = seen.map((s) => (JSON.parse(s.body) as { RequestId: string }).RequestId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[1]).toBe(ids[0]);
    await client.close();
  });

  it('does not resend a message without idempotency key after a failure', async () => {
    const { client, seen } = await exchange((_request, response) => response.writeHead(503).end());
    await expect(client.send('pacs.008', pacs008)).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    await client.close();
  });
});

describe('builders', () => {
  it('buildPacs008 fills the end-to-end id of the payer participant and PAGPRI', () => {
    expect(pacs008.tipoPrioridadePagamento).toBe('PAGPRI');
    expect(pacs008.endToEndID).toMatch(/^E00360305202504101530[a-zA-Z0-9]{11}$/);
    expect(isValid('pacs.008', pacs008)).toBe('');
  });

  it('buildPain013 fills the fixed members and 14 zeros as initiator', () => {
    const pain013 = buildPain013(
      {
        idRecorrencia: recurrenceId('60746948', { allowsRetries: true, at: new Date('2025-05-01T00:00:00Z') }),
        idConciliacaoRecebedor: 'MENSALIDADE202506',
        valor: 129.9,
        participanteDoUsuarioPagador: '00360305',
        cpfCnpjUsuarioPagador: '52998224725',
        contaUsuarioPagador: '12345678',
        agenciaUsuarioPagador: '0001',
        tipoContaUsuarioPagador: 'CACC',
        participanteDoUsuarioRecebedor: '60746948',
        cpfCnpjUsuarioRecebedor: '11222333000181',
        contaUsuarioRecebedor: '100200300',
        agenciaUsuarioRecebedor: '0001',
        tipoContaUsuarioRecebedor: 'TRAN',
        dataDeVencimento: '2025-06-10',
        finalidadeDoAgendamento: 'AGND',
      },
      { at: new Date('2025-06-07T12:00:04Z') },
    );
    expect(pain013).toMatchObject({
      metodoDePagamento: 'TRF',
      prioridadePagamento: 'NORM',
      tipoPrioridadePagamento: 'PAGAGD',
      participanteTarifado: 'SLEV',
      formaDeIniciacao: 'AUTO',
      iniciadorDoAgendamento: '00000000000000',
    });
    expect(isValid('pain.013', pain013)).toBe('');
  });

  it('buildReda022 spells the members of 2.12', () => {
    const reda = buildReda022({
      responsavel: { fone: '1133334444', celular: '11987654321', fax: '1133335555', email: 'pix@padaria.com.br' },
      diretor: { nome: 'Carla Mendes', fone: '1133336666', celular: '11912345678', email: 'carla@padaria.com.br', cpf: '11144477735' },
      palavraChave: 'PADARIA1',
    });
    expect(isValid('reda.022', reda)).toBe('');
    expect(isValid('reda.022', { ...reda, PalavraChave: 'PADARIA12' })).toMatch(/\/PalavraChave: must have at most 8/);
  });

  it('endToEndId and recurrenceId make well-formed ids', () => {
    expect(checkEndToEndId(endToEndId('60746948')).valid).toBe(true);
    expect(checkIdRec(recurrenceId('60746948', { allowsRetries: false })).valid).toBe(true);
  });
});
