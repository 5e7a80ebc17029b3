/**
 * Where an operation of another document of the interface is read: the payload locations of interface B are
 * reached at the URL a charge or a location answered (`loc.location`, `location`: host and path, no scheme).
 * The operation whose path template matches the end of such a URL is read there, with the scheme of the base URL.
 */
import type { OperationInfo } from '../runtime/contract.js';
import type { RunContext } from './checks/context.js';

/** Every string member named `location` in a value, with how deep it sits. */
function locationsIn(value: unknown, depth = 0, found: { location: string; depth: number }[] = []): { location: string; depth: number }[] {
  if (depth > 6 || typeof value !== 'object' || value === null) return found;
  for (const [name, member] of Object.entries(value)) {
    if (name === 'location' && typeof member === 'string') found.push({ location: member, depth });
    else locationsIn(member, depth + 1, found);
  }
  return found;
}

/** The template's literal segments and parameters matched against the end of a location's path. */
function matchTail(template: string, location: string): { prefix: string; path: Record<string, string> } | null {
  const segments = template.split('/').filter(Boolean);
  const parts = location.split('/');
  if (parts.length <= segments.length) return null;
  const tail = parts.slice(parts.length - segments.length);
  const path: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
    if (parameter) path[parameter] = decodeURIComponent(tail[index]!);
    else if (segment !== tail[index]) return null;
  }
  return { prefix: parts.slice(0, parts.length - segments.length).join('/'), path };
}

/**
 * The address and path values of `info` from a location made in this run; null when none fits its path. A
 * location inside a charge (`loc.location`) comes before one answered on its own, which may show nothing yet;
 * among equals, the latest made.
 */
export function locationTarget(context: RunContext, info: OperationInfo): { baseUrl: string; path: Record<string, string> } | null {
  const scheme = new URL(context.session.options.baseUrl).protocol;
  const document = context.operations.get(info.operationId)?.document;
  // The most specific template wins: `/cobv/{token}` must not be read as `/{token}` of an immediate charge.
  const longer = [...context.operations.values()].filter(
    (each) => each.document === document && each.info.path.split('/').length > info.path.split('/').length,
  );
  const candidates = [...context.made.values()]
    .reverse()
    .flatMap((made) => locationsIn(made.body))
    .sort((a, b) => b.depth - a.depth);
  for (const { location } of candidates) {
    const matched = matchTail(info.path, location);
    if (!matched || longer.some((each) => matchTail(each.info.path, location))) continue;
    return { baseUrl: `${scheme}//${matched.prefix}`, path: matched.path };
  }
  return null;
}
