/**
 * A consumer of the packed contrato, written as a user would: every subpath, strict TypeScript, and a
 * call of each client against the mocks whose addresses come from the environment. The same file is
 * compiled in an ES module project (esm.ts runs it) and in a CommonJS one (cjs.ts), so both see the same API.
 */
import { readFileSync } from 'node:fs';
import { createAccountsClient } from 'contrato/accounts';
import { createCoreBankingClient, ProblemError } from 'contrato/core-banking';
import { dedupeKey, parseEvent } from 'contrato/events';
import { buildBrCode, checkFormat, generateTxid, renderBrCodePng, renderBrCodeSvg } from 'contrato/formats';
import { buildPacs008, createMessagesClient } from 'contrato/messages';
import { createPixClient } from 'contrato/pix';
import { interfaces } from 'contrato';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

/** Every subpath called once; what each answered, for the test to compare. */
export async function callEverything(): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};

  const accounts = createAccountsClient({ baseUrl: env('ACCOUNTS_URL'), clientId: 'baas_consumer', clientSecret: 'consumer-secret', accountId: 48213 });
  const wallets = await accounts.caasWallets.list({ query: { network: 'ETH' } });
  results.accounts = wallets.meta?.total;

  const pix = createPixClient({ baseUrl: env('PIX_URL'), clientId: 'consumer', clientSecret: 'consumer-secret' });
  const cob = await pix.cob.get({ path: { txid: generateTxid() } });
  results.pix = cob.status;

  const core = createCoreBankingClient({ baseUrl: env('CORE_BANKING_URL'), clientId: 'consumer', clientSecret: 'consumer-secret' });
  const rules = await core.feeRules.list();
  results.coreBanking = Array.isArray(rules.data);
  try {
    await core.feeRules.get({ path: { id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50' } }, { headers: { Prefer: 'code=404' } });
  } catch (error) {
    results.coreBankingError = error instanceof ProblemError ? error.status : 'not a problem';
  }

  const messages = createMessagesClient({
    baseUrl: env('MESSAGES_URL'),
    login: { clientId: 'consumer', clientSecret: 'consumer-secret' },
    tls: { pfx: readFileSync(env('CLIENT_PFX')), passphrase: env('CLIENT_PFX_PASSPHRASE') },
  });
  const payment = buildPacs008({
    valor: 10.5,
    nomeUsuarioPagador: 'Joana Pereira',
    contaUsuarioPagador: '45678901',
    agenciaUsuarioPagador: '1234',
    tipoContaUsuarioPagador: 'CACC',
    participanteDoUsuarioPagador: '00360305',
    participanteDoUsuarioRecebedor: '60746948',
    cpfCnpjUsuarioRecebedor: '11222333000181',
    contaUsuarioRecebedor: '100200300',
    agenciaUsuarioRecebedor: '0001',
    tipoContaUsuarioRecebedor: 'CACC',
    formaDeIniciacao: 'DICT',
    finalidadeDaTransacao: 'IPAY',
  });
  results.messages = await messages.send('pacs.008', payment);

  const event = parseEvent({ type: 'invoice.paid', data: { invoiceId: 90215, status: 'COMPLETED' } });
  if (event.known && event.type === 'invoice.paid') results.events = dedupeKey(event);
  results.formats = checkFormat('cpf', '52998224725').valid;
  const code = buildBrCode({ key: 'financeiro@padaria.com.br', amount: '10.50', merchantName: 'PADARIA', merchantCity: 'SAO PAULO' });
  const png: Uint8Array = renderBrCodePng(code);
  results.qr = renderBrCodeSvg(code).startsWith('<svg') && png[1] === 0x50;
  results.interfaces = interfaces.map((info) => info.name).join(',');

  await Promise.all([accounts.close(), pix.close(), core.close(), messages.close()]);
  return results;
}
