/**
 * A pacs.008 validator written by hand, the limit the generated one is measured against: the same rules
 * as specs/messages/schemas/pacs/pacs.008.schema.json, every error collected (as the generated validators
 * do), no schema machinery. Formats use the same checks as the generated code (src/formats).
 */
import { checkCnpj } from '../src/formats/documents.js';
import { checkCpfCnpjDigits } from '../src/formats/documents.js';
import { checkEndToEndId } from '../src/formats/pix.js';

const accountTypes = new Set(['CACC', 'SLRY', 'SVGS', 'TRAN']);
const initiations = new Set(['MANU', 'DICT', 'INIC', 'QRDN', 'QRES', 'QRPG']);
const purposes = new Set(['IPAY', 'GSCB', 'OTHR']);
const agentModes = new Set(['AGFSS', 'AGTEC', 'AGTOT']);
const priorities = new Set(['PAGPRI', 'PAGFRD', 'PAGAGD']);
const required = [
  'valor',
  'nomeUsuarioPagador',
  'contaUsuarioPagador',
  'agenciaUsuarioPagador',
  'tipoContaUsuarioPagador',
  'participanteDoUsuarioPagador',
  'participanteDoUsuarioRecebedor',
  'cpfCnpjUsuarioRecebedor',
  'contaUsuarioRecebedor',
  'agenciaUsuarioRecebedor',
  'tipoContaUsuarioRecebedor',
  'formaDeIniciacao',
  'finalidadeDaTransacao',
];
const known = new Set([
  ...required,
  'idConciliacaoRecebedor',
  'cpfCnpjUsuarioPagador',
  'informacoesEntreUsuarios',
  'idContaTransacional',
  'modalidadeAgente',
  'prestadorDoServicoDeSaque',
  'informacoesValor',
  'tipoPrioridadePagamento',
  'endToEndID',
  'cnpjIniciadorPagamento',
  'recebimento',
]);
const accountPattern = /^[0-9]{1,20}$/;
const branchPattern = /^[0-9]{1,4}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function length(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i += 1;
    count += 1;
  }
  return count;
}

export function validatePacs008(message: unknown): string[] {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return ['/: must be an object'];
  const m = message as Record<string, unknown>;
  const errors: string[] = [];
  for (const name of required) if (m[name] === undefined) errors.push(`/${name}: required`);
  for (const name in m) if (!known.has(name)) errors.push(`/${name}: unknown`);
  const text = (name: string, check: (value: string) => boolean): void => {
    const value = m[name];
    if (value === undefined) return;
    if (typeof value !== 'string' || !check(value)) errors.push(`/${name}: invalid`);
  };
  const participant = (value: string) => length(value) === 8;
  if (m.valor !== undefined && (typeof m.valor !== 'number' || !(m.valor > 0))) errors.push('/valor: invalid');
  text('idConciliacaoRecebedor', (v) => length(v) >= 1 && length(v) <= 35);
  text('nomeUsuarioPagador', (v) => length(v) >= 1);
  text('cpfCnpjUsuarioPagador', (v) => checkCpfCnpjDigits(v).valid);
  text('cpfCnpjUsuarioRecebedor', (v) => checkCpfCnpjDigits(v).valid);
  text('contaUsuarioPagador', (v) => accountPattern.test(v));
  text('contaUsuarioRecebedor', (v) => accountPattern.test(v));
  text('agenciaUsuarioPagador', (v) => branchPattern.test(v));
  text('agenciaUsuarioRecebedor', (v) => branchPattern.test(v));
  text('tipoContaUsuarioPagador', (v) => accountTypes.has(v));
  text('tipoContaUsuarioRecebedor', (v) => accountTypes.has(v));
  text('participanteDoUsuarioPagador', participant);
  text('participanteDoUsuarioRecebedor', participant);
  text('prestadorDoServicoDeSaque', participant);
  text('informacoesEntreUsuarios', (v) => length(v) <= 140);
  text('idContaTransacional', (v) => length(v) >= 1);
  text('formaDeIniciacao', (v) => initiations.has(v));
  text('finalidadeDaTransacao', (v) => purposes.has(v));
  text('modalidadeAgente', (v) => agentModes.has(v));
  text('tipoPrioridadePagamento', (v) => priorities.has(v));
  text('endToEndID', (v) => checkEndToEndId(v).valid);
  text('cnpjIniciadorPagamento', (v) => checkCnpj(v).valid);
  text('recebimento', (v) => dateTimePattern.test(v) && !Number.isNaN(Date.parse(v)));
  if (m.informacoesValor !== undefined) {
    if (!Array.isArray(m.informacoesValor)) errors.push('/informacoesValor: invalid');
    else
      m.informacoesValor.forEach((item: unknown, index: number) => {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          errors.push(`/informacoesValor/${index}: invalid`);
          return;
        }
        const part = item as Record<string, unknown>;
        for (const name in part) if (name !== 'valor' && name !== 'tipo') errors.push(`/informacoesValor/${index}/${name}: unknown`);
        if (typeof part.valor !== 'number' || !(part.valor > 0)) errors.push(`/informacoesValor/${index}/valor: invalid`);
        if (typeof part.tipo !== 'string' || length(part.tipo) < 1) errors.push(`/informacoesValor/${index}/tipo: invalid`);
      });
  }
  return errors;
}
