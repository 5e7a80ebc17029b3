/**
 * How interface B refuses (section 7.2 and the API Pix standard): an RFC 7807 body whose `type` ends in
 * the error type, `status` repeating the HTTP status, and `violacoes` naming each offending property. A
 * request the validators refuse is the operation's own 400 type (CobOperacaoInvalida on PUT /cob/{txid},
 * CobConsultaInvalida on GET /cob), never a generic one when the operation declares its own.
 */
import { operationTable } from '../../../generated/pix/operations.js';
import { operationTable as locationTable } from '../../../generated/pix-location/operations.js';
import type { ValidationIssue } from '../../runtime/errors.js';
import type { ProblemFormat, SandboxAnswer, SandboxProblem } from '../contract.js';

/** The error type base of the API Pix standard. */
export const errorTypeBase = 'https://pix.bcb.gov.br/api/v2/error';

const titles: Readonly<Record<string, string>> = {
  AcessoNegado: 'Acesso negado.',
  NaoEncontrado: 'Entidade não encontrada.',
  ServicoIndisponivel: 'Serviço indisponível.',
  RequisicaoInvalida: 'Requisição inválida.',
  CobNaoEncontrado: 'Cobrança não encontrada.',
  CobVNaoEncontrada: 'Cobrança com vencimento não encontrada.',
  PixNaoEncontrado: 'Pix não encontrado.',
  PixDevolucaoNaoEncontrada: 'Devolução não encontrada.',
  WebhookNaoEncontrado: 'Webhook não encontrado.',
  PayloadLocationNaoEncontrado: 'Location não encontrada.',
  CobOperacaoInvalida: 'Cobrança inválida.',
  CobVOperacaoInvalida: 'Cobrança com vencimento inválida.',
  CobConsultaInvalida: 'Consulta de cobranças inválida.',
  CobVConsultaInvalida: 'Consulta de cobranças com vencimento inválida.',
  PixDevolucaoInvalida: 'Devolução inválida.',
  PixConsultaInvalida: 'Consulta de Pix inválida.',
  WebhookOperacaoInvalida: 'Webhook inválido.',
  PayloadLocationOperacaoInvalida: 'Location inválida.',
  PayloadLocationConsultaInvalida: 'Consulta de locations inválida.',
};

/** A title for types without one of their own: the type's words ("CobOperacaoInvalida" → "Cob operacao invalida."). */
function titleOf(type: string): string {
  const known = titles[type];
  if (known) return known;
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

const invalidTypePattern = /(OperacaoInvalida|ConsultaInvalida|DevolucaoInvalida)$/;
const tables = { ...operationTable, ...locationTable };

/** The 400 type an operation declares for a request it refuses. */
export function invalidTypeOf(operationId: string): string {
  return tables[operationId as keyof typeof tables]?.errorTypes.find((type) => invalidTypePattern.test(type)) ?? 'RequisicaoInvalida';
}

/** `/calendario/expiracao` → `calendario.expiracao`; `/path/txid` → `txid`; `/query/inicio` → `inicio`. */
export function propertyOf(pointer: string): string {
  return pointer
    .replace(/^\/(path|query|header|body)(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function shown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function body(status: number, type: string, detail: string, violations: readonly { pointer: string; message: string; value?: unknown }[]) {
  return {
    type: `${errorTypeBase}/${type}`,
    title: titleOf(type),
    status,
    detail,
    ...(violations.length > 0
      ? {
          violacoes: violations.map((violation) => {
            const value = shown(violation.value);
            return {
              razao: violation.message,
              propriedade: propertyOf(violation.pointer),
              ...(value === undefined ? {} : { valor: value }),
            };
          }),
        }
      : {}),
  };
}

const problemJson = 'application/problem+json';

export const pixProblems: ProblemFormat = {
  problem(problem: SandboxProblem): SandboxAnswer {
    return {
      status: problem.status,
      body: body(problem.status, problem.errorType, problem.detail, problem.violations),
      headers: problem.headers,
      contentType: problemJson,
    };
  },
  invalid(issues: readonly ValidationIssue[], request): SandboxAnswer {
    const type = invalidTypeOf(request.operationId);
    const detail =
      issues.length === 1 ? 'A requisição viola uma regra do schema.' : `A requisição viola ${issues.length} regras do schema.`;
    return { status: 400, body: body(400, type, detail, issues), contentType: problemJson };
  },
  // Section 7.2 declares no 401 for interface B: a missing or expired token is AcessoNegado (403).
  unauthorizedStatus: 403,
  types: {
    unauthorized: 'AcessoNegado',
    forbidden: 'AcessoNegado',
    notFound: 'NaoEncontrado',
    tooManyRequests: 'RequisicaoInvalida',
    unavailable: 'ServicoIndisponivel',
  },
};
