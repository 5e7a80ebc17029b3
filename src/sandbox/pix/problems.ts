/**
 * How interface B refuses (section 7.2 and the API Pix standard): an RFC 7807 body whose `type` ends in
 * the error type, `status` repeating the HTTP status, and `violacoes` naming each offending property. A
 * request the validators refuse is the operation's own 400 type (CobOperacaoInvalida on PUT /cob/{txid},
 * CobConsultaInvalida on GET /cob), never a generic one when the operation declares its own.
 */
import { operationTable } from '../../../generated/pix/operations.js';
import { operationTable as locationTable } from '../../../generated/pix-location/operations.js';
import { stringifyIteratively } from '../../events/json.js';
import type { ValidationIssue } from '../../runtime/errors.js';
import type { ProblemFormat, SandboxAnswer, SandboxProblem } from '../contract.js';
import { clipped, maxNamedIssues } from '../problem-details.js';

/** The error type base of the API Pix standard. */
export const errorTypeBase = 'https://pix.bcb.gov.br/api/v2/error';

/**
 * The title of every error type the Pix documents declare, in Portuguese; a test holds every declared type
 * to an entry here, so a type the spec adds gets a title written for it, not one made from its name.
 */
export const pixProblemTitles: Readonly<Record<string, string>> = {
  AcessoNegado: 'Acesso negado.',
  NaoEncontrado: 'Entidade não encontrada.',
  PermanentementeRemovido: 'Recurso removido permanentemente.',
  RequisicaoInvalida: 'Requisição inválida.',
  ErroInternoDoServidor: 'Erro interno do servidor.',
  ServicoIndisponivel: 'Serviço indisponível.',
  IndisponibilidadePorTempoEsgotado: 'Serviço indisponível: tempo de resposta esgotado.',
  CobNaoEncontrado: 'Cobrança não encontrada.',
  CobOperacaoInvalida: 'Cobrança inválida.',
  CobConsultaInvalida: 'Consulta de cobranças inválida.',
  CobVNaoEncontrada: 'Cobrança com vencimento não encontrada.',
  CobVOperacaoInvalida: 'Cobrança com vencimento inválida.',
  CobVConsultaInvalida: 'Consulta de cobranças com vencimento inválida.',
  LoteCobVNaoEncontrado: 'Lote de cobranças com vencimento não encontrado.',
  LoteCobVOperacaoInvalida: 'Lote de cobranças com vencimento: operação inválida.',
  LoteCobVConsultaInvalida: 'Consulta de lotes de cobranças com vencimento inválida.',
  CobRNaoEncontrado: 'Cobrança recorrente não encontrada.',
  CobROperacaoInvalida: 'Cobrança recorrente: operação inválida.',
  CobRConsultaInvalida: 'Consulta de cobranças recorrentes inválida.',
  CobPayloadNaoEncontrado: 'Payload de cobrança não encontrado.',
  CobPayloadOperacaoInvalida: 'Requisição de payload de cobrança inválida.',
  RecNaoEncontrada: 'Recorrência não encontrada.',
  RecOperacaoInvalida: 'Recorrência: operação inválida.',
  RecConsultaInvalida: 'Consulta de recorrências inválida.',
  RecPayloadNaoEncontrado: 'Payload de recorrência não encontrado.',
  RecPayloadOperacaoInvalida: 'Requisição de payload de recorrência inválida.',
  SolicRecNaoEncontrada: 'Solicitação de confirmação de recorrência não encontrada.',
  SolicRecOperacaoInvalida: 'Solicitação de confirmação de recorrência: operação inválida.',
  PayloadLocationNaoEncontrado: 'Location não encontrada.',
  PayloadLocationOperacaoInvalida: 'Location inválida.',
  PayloadLocationConsultaInvalida: 'Consulta de locations inválida.',
  PayloadLocationRecNaoEncontrado: 'Location de recorrência não encontrada.',
  PayloadLocationRecConsultaInvalida: 'Consulta de locations de recorrência inválida.',
  PixNaoEncontrado: 'Pix não encontrado.',
  PixConsultaInvalida: 'Consulta de Pix inválida.',
  PixDevolucaoNaoEncontrada: 'Devolução não encontrada.',
  PixDevolucaoInvalida: 'Devolução inválida.',
  WebhookNaoEncontrado: 'Webhook não encontrado.',
  WebhookOperacaoInvalida: 'Webhook inválido.',
  WebhookConsultaInvalida: 'Consulta de webhooks inválida.',
  WebhookRecOperacaoInvalida: 'Webhook de recorrências inválido.',
  WebhookRecConsultaInvalida: 'Consulta do webhook de recorrências inválida.',
  WebhookCobROperacaoInvalida: 'Webhook de cobranças recorrentes inválido.',
  WebhookCobRConsultaInvalida: 'Consulta do webhook de cobranças recorrentes inválida.',
};

/** The title of each status, for a type without its own (never a title made up from the type's name). */
const statusTitles: Readonly<Record<number, string>> = {
  400: 'Requisição inválida.',
  403: 'Acesso negado.',
  404: 'Entidade não encontrada.',
  408: 'Tempo esgotado para enviar a requisição.',
  410: 'Recurso removido permanentemente.',
  413: 'Requisição grande demais.',
  429: 'Requisições demais.',
  500: 'Erro interno do servidor.',
  501: 'Operação não implementada.',
  503: 'Serviço indisponível.',
  504: 'Serviço indisponível: tempo de resposta esgotado.',
};

export function titleOf(type: string, status: number): string {
  return pixProblemTitles[type] ?? statusTitles[status] ?? (status >= 500 ? 'Erro do servidor.' : 'Requisição recusada.');
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
  // Without recursion: the value came from the request, and its depth is the caller's choice.
  return clipped(typeof value === 'string' ? value : (stringifyIteratively(value) ?? String(value)));
}

function body(status: number, type: string, detail: string, violations: readonly { pointer: string; message: string; value?: unknown }[]) {
  return {
    type: `${errorTypeBase}/${type}`,
    title: titleOf(type, status),
    status,
    detail,
    ...(violations.length > 0
      ? {
          // At most maxNamedIssues, each repeating at most maxEchoLength characters of the request: `detail` counts them all.
          violacoes: violations.slice(0, maxNamedIssues).map((violation) => {
            const value = shown(violation.value);
            return {
              razao: clipped(violation.message),
              propriedade: clipped(propertyOf(violation.pointer)),
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
    // The standard has no type of its own for a body too large or too slow: the generic one of a refused request.
    tooLarge: 'RequisicaoInvalida',
    timedOut: 'RequisicaoInvalida',
    internal: 'ErroInternoDoServidor',
  },
};
