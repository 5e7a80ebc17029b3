/**
 * The one router: the operation of a request, found without scanning the whole table. Routes are grouped
 * by method and number of segments once per document, and a request is compared only with its group.
 * Where two templates fit (the API Pix's /cobv/{txid} beside a location's /cobv/{token}), the one with
 * more literal segments wins, then the one whose path parameters are valid. `contrato validate` also takes
 * a path written as its template (`/cob/{txid}`): that is the operation itself, with no values to check.
 */
import { parameterValue } from '../runtime/contract-check.js';
import type { OperationInfo } from '../runtime/contract.js';
import { check } from '../runtime/validation.js';
import type { InterfaceModules } from './registry.js';

export interface OperationMatch {
  readonly info: OperationInfo;
  /** Path parameters taken from a concrete path, as text. */
  readonly pathParameters: Record<string, string>;
  /** False when the path was the template itself: its parameters have no values to check. */
  readonly concrete: boolean;
}

interface Route {
  readonly info: OperationInfo;
  /** Per segment: the literal text, or null for a parameter (its name in `names`). */
  readonly literals: readonly (string | null)[];
  readonly names: readonly (string | null)[];
  readonly literalCount: number;
}

export type Router = (method: string, target: string) => OperationMatch | null;

const routers = new WeakMap<InterfaceModules, Router>();

/** The operation `method` and `target` (path and query) reach in `modules`, or null. */
export function findOperation(modules: InterfaceModules, method: string, target: string): OperationMatch | null {
  let router = routers.get(modules);
  if (!router) {
    router = createRouter(modules);
    routers.set(modules, router);
  }
  return router(method, target);
}

function createRouter(modules: InterfaceModules): Router {
  const templates = new Map(Object.values(modules.operationTable).map((info) => [`${info.method} ${info.path}`, info]));
  const groups = new Map<string, Route[]>();
  for (const info of Object.values(modules.operationTable)) {
    const segments = info.path.split('/');
    const names = segments.map((segment) => /^\{(.+)\}$/.exec(segment)?.[1] ?? null);
    const literals = segments.map((segment, index) =>
      names[index] === null ? (info.pathCaseInsensitive && index === segments.length - 1 ? segment.toLowerCase() : segment) : null,
    );
    const key = `${info.method} ${segments.length}`;
    const route = { info, literals, names, literalCount: literals.filter((literal) => literal !== null).length };
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  for (const routes of groups.values()) routes.sort((a, b) => b.literalCount - a.literalCount);

  const pathValid = (match: OperationMatch): boolean => {
    const validator = modules.validators.operations[match.info.operationId]?.parameters.path;
    if (!validator) return true;
    const values = Object.fromEntries(
      match.info.parameters.filter((p) => p.in === 'path').map((p) => [p.name, parameterValue(match.pathParameters[p.name] ?? '', p.type)]),
    );
    return check(validator, values, '/path', modules.patternDescriptions).length === 0;
  };

  return (method, target) => {
    const path = target.split('?')[0]!;
    const wanted = method.toLowerCase();
    // A request never carries a raw brace (it is sent as %7B): a path with one is a template named as written.
    const template = path.includes('{') ? templates.get(`${wanted} ${path}`) : undefined;
    if (template) return { info: template, pathParameters: {}, concrete: false };
    const segments = path.split('/');
    const routes = groups.get(`${wanted} ${segments.length}`);
    if (!routes) return null;
    const fitting: { match: OperationMatch; literals: number }[] = [];
    for (const route of routes) {
      const pathParameters: Record<string, string> = {};
      let fits = true;
      for (let index = 0; index < segments.length && fits; index += 1) {
        const segment = segments[index]!;
        const literal = route.literals[index];
        if (literal === null || literal === undefined) {
          if (segment === '') fits = false;
          else {
            try {
              pathParameters[route.names[index]!] = decodeURIComponent(segment);
            } catch {
              fits = false;
            }
          }
        } else if (literal !== (route.info.pathCaseInsensitive && index === segments.length - 1 ? segment.toLowerCase() : segment))
          fits = false;
      }
      if (!fits) continue;
      // A request path is always concrete: its parameters are validated.
      fitting.push({ match: { info: route.info, pathParameters, concrete: true }, literals: route.literalCount });
    }
    if (fitting.length <= 1) return fitting[0]?.match ?? null;
    // Only the best literal count competes; among those a valid path wins.
    const best = fitting.filter((entry) => entry.literals === fitting[0]!.literals);
    return (best.find((entry) => pathValid(entry.match)) ?? best[0]!).match;
  };
}
