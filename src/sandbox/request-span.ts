/**
 * The server span of each request the sandbox serves (runtime/telemetry-server.ts), continuing the caller's
 * `traceparent`: a client sending it and the sandbox in one process show one trace. A call of an interface is
 * named by the operation the engine matched (`cob.create`), with `contrato.interface`, `contrato.operation`
 * and `http.route` (the prefix and the operation's path template); a control request `METHOD route`
 * (`GET /_sandbox/deliveries`; a verb's route is `/_sandbox/{document}/{verb}`); a path no route serves the bare
 * method, as OpenTelemetry's HTTP conventions name it: its concrete path may carry ids, so neither name nor
 * attribute takes it.
 *
 * The engine matches the operation inside its answer, so a call's span starts named by its method and is
 * renamed once the engine answered: no request is routed twice for its span's sake.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ServerSpan, startServerSpan } from '../runtime/telemetry-server.js';
import { controlRouteOf, isControlTarget } from './control.js';
import type { MountedModule } from './engine.js';

/** The sandbox's handling of a request, given its span to name once the operation is known. */
export type ServeInSpan = (request: IncomingMessage, response: ServerResponse, span: ServerSpan) => Promise<void>;

/**
 * The node:http handler running `serve` in a span per request, ended with the status answered (none for a
 * connection dropped or reset); `moduleServing` is the interface a target falls under, if any.
 */
export function servedInSpans(
  serve: ServeInSpan,
  moduleServing: (target: string) => MountedModule | undefined,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const target = request.url ?? '/';
    const span = isControlTarget(target) ? startControlSpan(request, target) : startInterfaceSpan(request, moduleServing(target));
    try {
      await span.within(() => serve(request, response, span));
    } finally {
      span.end({ status: response.headersSent ? response.statusCode : undefined });
    }
  };
}

const methodOf = (request: IncomingMessage): string => (request.method ?? 'GET').toUpperCase();

function startControlSpan(request: IncomingMessage, target: string): ServerSpan {
  const method = methodOf(request);
  const route = controlRouteOf(target);
  return startServerSpan({ name: route ? `${method} ${route}` : method, method, route, headers: request.headers });
}

/** The span of a call under an interface's prefix (`entry`), or under none. */
function startInterfaceSpan(request: IncomingMessage, entry: MountedModule | undefined): ServerSpan {
  const method = methodOf(request);
  return startServerSpan({
    name: method,
    method,
    headers: request.headers,
    ...(entry ? { attributes: { 'contrato.interface': entry.module.document } } : {}),
  });
}

/** Names a call's span by the operation the engine matched; an answer without one (a route no operation has) keeps the method. */
export function nameByOperation(span: ServerSpan, entry: MountedModule, operationId: string | undefined): void {
  const info = operationId === undefined ? undefined : entry.generated.operationTable[operationId];
  if (!info) return;
  span.update({
    name: info.operationId,
    route: `${entry.module.prefix}${info.path}`,
    attributes: { 'contrato.operation': info.operationId },
  });
}
