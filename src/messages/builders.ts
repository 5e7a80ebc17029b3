/**
 * Builders of interface C messages: they fill the identifiers and the fixed or default members of
 * section 2.12, so a caller writes only business fields; the result is a typed payload for `send()`,
 * which still validates it before sending.
 */
import type { MessagePayloads } from '../../generated/messages/operations.js';
import { generateEndToEndId, generateIdRec } from '../formats/pix.js';

/** End-to-end id of a payment initiated by the participant `ispb` at `at` (E + ISPB + yyyyMMddHHmm + 11 characters). */
export function endToEndId(ispb: string, at: Date = new Date()): string {
  return generateEndToEndId({ ispb, at });
}

/** Recurrence id (idRecorrencia) of the receiving participant: RR when retries are allowed, RN otherwise. */
export function recurrenceId(ispb: string, options: { readonly allowsRetries: boolean; readonly at?: Date }): string {
  return generateIdRec({ agentId: ispb, allowsRetries: options.allowsRetries, ...(options.at ? { at: options.at } : {}) });
}

type Pacs008 = MessagePayloads['pacs.008'];
type Pacs008Defaults = 'endToEndID' | 'tipoPrioridadePagamento' | 'informacoesEntreUsuarios';
/** The business fields of a pacs.008; the rest may be given to override the builder. */
export type Pacs008Input = Omit<Pacs008, Pacs008Defaults> & Partial<Pick<Pacs008, Pacs008Defaults>>;

/** A pacs.008 with its end-to-end id (from the payer's participant and now) and the defaults of 2.12 (PAGPRI). */
export function buildPacs008(input: Pacs008Input, options: { readonly at?: Date } = {}): Pacs008 {
  return {
    tipoPrioridadePagamento: 'PAGPRI',
    ...input,
    endToEndID: input.endToEndID ?? endToEndId(input.participanteDoUsuarioPagador, options.at),
  } as Pacs008;
}

type Pain013 = MessagePayloads['pain.013'];
/** Members of a pain.013 that section 2.12 fixes to one value, or that the builder fills. */
type Pain013Fixed =
  | 'metodoDePagamento'
  | 'prioridadePagamento'
  | 'tipoPrioridadePagamento'
  | 'participanteTarifado'
  | 'formaDeIniciacao'
  | 'iniciadorDoAgendamento'
  | 'idFimAFim'
  | 'dataHoraRecebimentoPeloParticipanteDoUsuarioRecebedor';
export type Pain013Input = Omit<Pain013, Pain013Fixed> & Partial<Pick<Pain013, Pain013Fixed>>;

/**
 * A pain.013 (scheduled recurring charge) with the fixed members of 2.12 (TRF, NORM, PAGAGD, SLEV, AUTO),
 * the scheduling initiator's default of 14 zeros, an end-to-end id from the receiver's participant and
 * the receipt instant.
 */
export function buildPain013(
  input: Pain013Input & { readonly participanteDoUsuarioRecebedor: string },
  options: { readonly at?: Date } = {},
): Pain013 {
  const at = options.at ?? new Date();
  return {
    metodoDePagamento: 'TRF',
    prioridadePagamento: 'NORM',
    tipoPrioridadePagamento: 'PAGAGD',
    participanteTarifado: 'SLEV',
    formaDeIniciacao: 'AUTO',
    iniciadorDoAgendamento: '00000000000000',
    dataHoraRecebimentoPeloParticipanteDoUsuarioRecebedor: at.toISOString(),
    ...input,
    idFimAFim: input.idFimAFim ?? endToEndId(input.participanteDoUsuarioRecebedor, at),
  } as Pain013;
}

/** Contacts of a reda.022 grouped as people think of them; the builder spells the members of 2.12. */
export interface Reda022Input {
  readonly responsavel: { readonly fone: string; readonly celular: string; readonly fax: string; readonly email: string };
  readonly diretor: {
    readonly nome: string;
    readonly fone: string;
    readonly celular: string;
    readonly email: string;
    readonly cpf: string;
  };
  /** At most 8 characters. */
  readonly palavraChave: string;
}

export function buildReda022(input: Reda022Input): MessagePayloads['reda.022'] {
  return {
    ResponsavelFone: input.responsavel.fone,
    ResponsavelCelular: input.responsavel.celular,
    ResponsavelFax: input.responsavel.fax,
    ResponsavelEmail: input.responsavel.email,
    DiretorNome: input.diretor.nome,
    DiretorFone: input.diretor.fone,
    DiretorCelular: input.diretor.celular,
    DiretorEmail: input.diretor.email,
    CpfDiretorEstatutario: input.diretor.cpf,
    PalavraChave: input.palavraChave,
  } as MessagePayloads['reda.022'];
}
