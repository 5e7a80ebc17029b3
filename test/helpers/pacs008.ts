/** The pacs.008 of the tests: one payment of R$ 150.75 between the seeded participants, built at `at`. */
import { buildPacs008 } from '../../src/messages/index.js';

export const examplePayer = {
  valor: 150.75,
  nomeUsuarioPagador: 'Joana Pereira',
  cpfCnpjUsuarioPagador: '52998224725',
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
} as const;

export const examplePacs008 = (at: Date) => buildPacs008(examplePayer, { at });
