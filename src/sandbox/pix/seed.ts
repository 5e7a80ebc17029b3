/**
 * What a fresh Pix sandbox holds besides its receiving user: the state only the platform makes — a Pix
 * received, the payload locations a payer's app reads by their access token, a batch already processed, a
 * recurrence the payer approved with a charge whose attempt failed, one awaiting the payer at its location.
 * The spec's examples name exactly these ids and tokens (test/docs/samples.test.ts runs every sample against
 * a fresh sandbox), so they are fixed here, not drawn from the seed. Each record is made by the module's own
 * code. Seeded locations show the default address (127.0.0.1:4010) whatever the port: they are read by token.
 */
import type { SandboxEnvironment } from '../contract.js';
import { createBatch, settleBatches } from './batches.js';
import { createCharge } from './charges.js';
import { addLocation } from './locations.js';
import { addRecLocation } from './rec-locations.js';
import { announceReceived } from './payments.js';
import { approveRecurrence } from './recurrence-moves.js';
import { createRecurrence } from './recurrences.js';
import { recurringChargeVerb } from './recurring-attempts.js';
import { createRecurringCharge } from './recurring-charges.js';
import { instant, payerIspb, emptyPixState, type PixState } from './state.js';

/** The address `contrato sandbox` listens on by default: what seeded locations show (their token is what is read). */
const seedOrigin = { baseUrl: 'http://127.0.0.1:4010/pix' };

/** The ids and tokens of the seed, as the spec's examples name them. */
export const pixSeed = {
  /** A Pix received on the random key (GET /pix/{e2eid}, PUT /pix/{e2eid}/devolucao/{id}). */
  receivedPix: 'E12345678202411151045abcdefghijk',
  /** An immediate charge at the location whose token GET /pix-location/{pixUrlAccessToken} reads. */
  cob: { txid: 'b4f1c2d3e5a6478b9c0d1e2f3a4b5c6d', location: { id: 7816, tipoCob: 'cob', token: '9d36b84fc70b478fb95c12729b90ca25' } },
  /** A batch of due-date charges the PSP has processed (GET, PATCH /lotecobv/{id}; the PUT example replaces its charges). */
  batch: { id: '3001', txids: ['5a7c9e1b3d5f47a9b1c3d5e7f9a1b3c5', '8e0a2c4d6f8b40c2a4e6b8d0f2a4c6e8'] },
  /** The batch's first charge, at the location of GET /pix-location/cobv/{pixUrlAccessToken}. */
  cobv: { txid: '5a7c9e1b3d5f47a9b1c3d5e7f9a1b3c5', location: { id: 7818, tipoCob: 'cobv', token: '4f1e2d3c5b6a47988a9b0c1d2e3f4a5b' } },
  /** A recurrence the payer approved (POST /cobr, PUT /cobr/{txid}, GET and PATCH /rec/{idRec}). */
  approvedRecurrence: 'RR1314008820261105k7Q2mX9pL4a',
  /** A recurring charge of it whose first attempt the payer's PSP rejected (POST /cobr/{txid}/retentativa/{data}). */
  failedRecurringCharge: 'a5c7d2e9b4f61ac0b7f3a91d24e6b8f0',
  /** A recurrence awaiting the payer at the location of GET /pix-location/rec/{recUrlAccessToken}. */
  pendingRecurrence: { idRec: 'RN1823612020250301a1B2c3D4e5F', location: { id: 4822, token: '3f1c8e2a9b7d4c6e8a0b2d4f6e8c0a1b' } },
} as const;

export function seedPix(state: PixState, env: SandboxEnvironment): void {
  const [, , randomKey] = state.receiver.keys;
  state.received[pixSeed.receivedPix] = {
    endToEndId: pixSeed.receivedPix,
    valor: '100.00',
    chave: randomKey,
    horario: instant(env),
    infoPagador: 'Reserva da mesa 12',
    devolucoes: [],
  };
  // One platform: the receiving user's account in interface A holds this credit too (modules created before
  // this one, accounts among them, hear it; its RECEIVE event goes nowhere, as no webhook is registered yet).
  announceReceived(state, env, state.received[pixSeed.receivedPix]!);

  addLocation(state, pixSeed.cob.location, seedOrigin, env);
  createCharge(
    state,
    'cob',
    pixSeed.cob.txid,
    {
      calendario: { expiracao: 86_400 * 30 },
      valor: { original: '150.00' },
      chave: randomKey,
      solicitacaoPagador: 'Informe o número do pedido',
      infoAdicionais: [{ nome: 'Pedido', valor: '4821' }],
      loc: { id: pixSeed.cob.location.id },
    },
    seedOrigin,
    env,
  );
  addLocation(state, pixSeed.cobv.location, seedOrigin, env);
  const batch = createBatch(
    state,
    env,
    pixSeed.batch.id,
    {
      descricao: 'Mensalidades de abril — turma B',
      cobsv: pixSeed.batch.txids.map((txid) => ({
        txid,
        calendario: { dataDeVencimento: '2030-04-10', validadeAposVencimento: 30 },
        ...(txid === pixSeed.cobv.txid ? { loc: { id: pixSeed.cobv.location.id } } : {}),
        devedor: { cpf: '52998224725', nome: 'Mariana Costa Ribeiro' },
        valor: { original: '480.00' },
        chave: randomKey,
        solicitacaoPagador: 'Informe a matrícula do aluno',
      })),
    },
    seedOrigin,
  );
  // Processed already: a batch being processed takes no change.
  batch.processAtMs = env.clock.nowMs();
  settleBatches(state, env);

  const approved = createRecurrence(state, env, pixSeed.approvedRecurrence, {
    vinculo: { objeto: 'Plano anual academia', contrato: 'CT-2026-0815', devedor: { cpf: '45278319682', nome: 'Mariana Costa Ribeiro' } },
    // Open-ended, so the charges of the examples (due in 2030) fall inside it.
    calendario: { dataInicial: '2026-12-10', periodicidade: 'MENSAL' },
    valor: { valorRec: '149.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
  });
  approveRecurrence(state, env, approved, 'JORNADA_2', { ispbParticipante: payerIspb, cpf: '45278319682' });
  createRecurringCharge(state, env, pixSeed.failedRecurringCharge, {
    idRec: pixSeed.approvedRecurrence,
    // The cycle before the examples' charge due 2030-12-10; the examples' retry (2030-12-14) is within its 7 days.
    calendario: { dataDeVencimento: '2030-12-08' },
    valor: { original: '149.90' },
    ajusteDiaUtil: false,
    recebedor: { ...state.recurringAccount },
  });
  recurringChargeVerb({ txid: pixSeed.failedRecurringCharge, status: 'REJEITADA', codigo: 'AM02' }, state, env);

  addRecLocation(state, pixSeed.pendingRecurrence.location, seedOrigin, env);
  createRecurrence(state, env, pixSeed.pendingRecurrence.idRec, {
    vinculo: { objeto: 'Mensalidade escolar', contrato: 'MAT-2025-0417', devedor: { cpf: '52998224725', nome: 'Mariana Costa Ribeiro' } },
    calendario: { dataInicial: '2030-04-10', dataFinal: '2030-12-10', periodicidade: 'MENSAL' },
    valor: { valorRec: '480.00' },
    politicaRetentativa: 'NAO_PERMITE',
    loc: pixSeed.pendingRecurrence.location.id,
  });
}

/** A fresh pix sandbox: an empty state (state.ts), then what the platform seeds in it. */
export function createPixState(env: SandboxEnvironment): PixState {
  const state = emptyPixState();
  seedPix(state, env);
  return state;
}
