/**
 * What a fresh messages sandbox holds: what other participants sent the participant (ISPB 00360305 in the
 * spec's examples) and it still owes an answer to — a payment (pacs.008), a recurrence to authorise
 * (pain.009), a scheduled charge (pain.013) and its cancellation (camt.055) — and a key of the directory
 * that a static QR code names. The spec's examples answer exactly these ids, so every sample runs as
 * printed against any seed (test/docs/samples.test.ts); each message is put on the queue as `receive`
 * puts one, checked against its schema first.
 */
import { buildPain013 } from '../../messages/builders.js';
import type { SandboxEnvironment } from '../contract.js';
import { enqueue } from './queue.js';
import { type Json, emptyMessagesState, type MessagesState, schemaIssues } from './state.js';

/** A Pix of 150.75 from participant 60746948, answered by the pacs.002 example and returned by the pacs.004 ones. */
const payment: Json = {
  idMensagem: 'M60746948Kq7Xz2Lm9Pa0001',
  endToEndID: 'E60746948202505141032Kq7Xz2Lm9Pa',
  valor: 150.75,
  nomeUsuarioPagador: 'Maria Aparecida Souza',
  contaUsuarioPagador: '00012345678',
  agenciaUsuarioPagador: '0001',
  tipoContaUsuarioPagador: 'CACC',
  participanteDoUsuarioPagador: '60746948',
  participanteDoUsuarioRecebedor: '00360305',
  cpfCnpjUsuarioRecebedor: '11222333000181',
  contaUsuarioRecebedor: '100200300',
  agenciaUsuarioRecebedor: '0001',
  tipoContaUsuarioRecebedor: 'TRAN',
  formaDeIniciacao: 'DICT',
  finalidadeDaTransacao: 'IPAY',
};

/** A monthly recurrence the receiver's participant asks the payer to authorise (the pain.012 authorization example). */
const recurrence: Json = {
  tipoRecorrencia: 'RCUR',
  tipoFrequencia: 'MNTH',
  dataInicialRecorrencia: '2025-06-10',
  idRecorrencia: 'RR6074694820250501Mx5Nc7Vb2Zk',
  idSolicitacaoRecorrencia: 'SC6074694820250501Ab3Cd5Ef7Gh',
  nomeUsuarioRecebedor: 'Academia Corpo em Movimento Ltda',
  cpfCnpjUsuarioRecebedor: '11222333000181',
  participanteDoUsuarioRecebedor: '60746948',
  cpfCnpjUsuarioPagador: '52998224725',
  contaUsuarioPagador: '00012345678',
  participanteDoUsuarioPagador: '00360305',
  numeroContrato: 'CT-2025-000184',
  solicExpiracao: '2025-05-08T23:59:59Z',
};

/**
 * A charge of that recurrence scheduled for its due date (the pain.014 and camt.055 examples name it), made by
 * the package's own builder: the members section 2.12 fixes (TRF, NORM, PAGAGD, SLEV, AUTO) are written once.
 */
const scheduledCharge = buildPain013(
  {
    idRecorrencia: 'RR6074694820250501Mx5Nc7Vb2Zk',
    idFimAFim: 'E60746948202506071200Mn3Bv5Cx7Za',
    idConciliacaoRecebedor: 'MENSALIDADE202506',
    valor: 129.9,
    participanteDoUsuarioPagador: '00360305',
    cpfCnpjUsuarioPagador: '52998224725',
    contaUsuarioPagador: '00012345678',
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
) as unknown as Json;

/** The receiver's participant cancels that scheduled charge (the camt.029 example answers it). */
const cancellation: Json = {
  idCancelamentoAgendamento: 'CA0036030520250703Qw1Er3Ty5Ui',
  participanteDestinatarioDoCancelamento: '00360305',
  participanteSolicitanteDoCancelamento: '60746948',
  idConciliacaoRecebedorOriginal: 'MENSALIDADE202506',
  cpfCnpjUsuarioSolicitanteDoCancelamento: '11222333000181',
  motivoDoCancelamento: 'SLCR',
  idFimAFimOriginal: 'E60746948202506071200Mn3Bv5Cx7Za',
};

/** The bakery's e-mail key, which the static QR code of the lookup example names (and the update example changes). */
const bakeryKey: Json = {
  Key: 'financeiro@padaria.com.br',
  KeyType: 'EMAIL',
  Branch: '0427',
  AccountNumber: '00098765432',
  AccountType: 'CACC',
  Type: 'LEGAL_PERSON',
  OpeningDate: '2019-02-11T14:05:00-03:00',
  Name: 'Padaria Pão Quente Comércio de Alimentos Ltda',
  TradeName: 'Padaria Pão Quente',
  TaxIdNumber: '11222333000181',
};

/** The messages on the queue of a fresh sandbox, oldest first. */
export const seededMessages: readonly { readonly message: string; readonly body: Json }[] = [
  { message: 'pacs.008', body: payment },
  { message: 'pain.009', body: recurrence },
  { message: 'pain.013', body: scheduledCharge },
  { message: 'camt.055', body: cancellation },
];

export function seedMessages(state: MessagesState, env: SandboxEnvironment): void {
  for (const { message, body } of seededMessages) {
    // idMensagem is the exchange's, not a member of the message's schema.
    const { idMensagem: _id, ...content } = body;
    const issues = schemaIssues(message, content);
    if (issues.length > 0) throw new Error(`the messages seed holds a ${message} its schema refuses: ${JSON.stringify(issues)}`);
    enqueue(state, env, message, body);
  }
  const at = new Date(env.clock.nowMs()).toISOString();
  state.keys[String(bakeryKey.Key)] = { ...bakeryKey, CreationDate: at, UpdateDate: at };
}

/** A fresh messages sandbox: an empty state (state.ts), then what the platform seeds in it. */
export function createMessagesState(env: SandboxEnvironment): MessagesState {
  const state = emptyMessagesState(env);
  seedMessages(state, env);
  return state;
}
