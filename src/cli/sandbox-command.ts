/**
 * `contrato sandbox <verb>`: drives a running sandbox through its control plane (`/_sandbox`), so a
 * developer can pay a charge or move the clock from a shell. One line per answer, JSON when it has a body.
 */
import { UsageError } from './arguments.js';
import type { Output } from './format-commands.js';
import { sandboxAddress, sandboxUrlVariable } from './sandbox-address.js';

interface VerbOptions {
  readonly url: string | undefined;
  readonly count: string | undefined;
}

/** The control request of a verb and its arguments: method, path under /_sandbox, body. */
function controlRequest(verb: string, args: readonly string[], options: VerbOptions): { method: string; path: string; body?: unknown } {
  const needs = (count: number, usage: string): void => {
    if (args.length !== count) throw new UsageError(`sandbox ${verb} takes ${usage}`);
  };
  switch (verb) {
    case 'status':
      needs(0, 'no argument');
      return { method: 'GET', path: '' };
    case 'reset':
      needs(0, 'no argument');
      return { method: 'POST', path: '/reset', body: {} };
    case 'deliveries':
      needs(0, 'no argument');
      return { method: 'GET', path: '/deliveries' };
    case 'pay':
      needs(1, 'the txid of the charge to pay');
      return { method: 'POST', path: '/pix/pay', body: { txid: args[0] } };
    case 'clock': {
      needs(1, 'the seconds to move the clock forward');
      const seconds = Number(args[0]);
      if (!/^\d+(\.\d+)?$/.test(args[0]!) || !(seconds > 0))
        throw new UsageError(
          `sandbox clock only moves forward: it takes a positive number of seconds (120, 0.5), got ${JSON.stringify(args[0])}`,
        );
      return { method: 'POST', path: '/clock', body: { advanceSeconds: seconds } };
    }
    case 'resend':
      needs(1, 'the id of a delivered webhook (sandbox deliveries lists them)');
      return { method: 'POST', path: `/deliveries/${encodeURIComponent(args[0]!)}/resend`, body: {} };
    case 'fault': {
      needs(2, '<operationId> <unavailable|reset-after-processing|rate-limited|slow>');
      const count = options.count === undefined ? 1 : Number(options.count);
      if (!Number.isInteger(count) || count < 1)
        throw new UsageError(`--count takes a whole number from 1, got ${JSON.stringify(options.count)}`);
      return { method: 'POST', path: '/faults', body: { operationId: args[0], kind: args[1], count } };
    }
    case 'control': {
      if (args.length < 1 || args.length > 2 || !/^[a-z-]+\/[a-zA-Z]+$/.test(args[0]!))
        throw new UsageError('sandbox control takes <interface>/<verb> and, optionally, a JSON object');
      let body: unknown = {};
      if (args[1] !== undefined) {
        try {
          body = JSON.parse(args[1]);
        } catch {
          throw new UsageError(`sandbox control: the body is not JSON: ${args[1].slice(0, 60)}`);
        }
      }
      return { method: 'POST', path: `/${args[0]}`, body };
    }
    default:
      throw new UsageError(`unknown sandbox verb ${verb}; the verbs are status, reset, deliveries, pay, clock, resend, fault, control`);
  }
}

export async function sandboxVerb(positionals: readonly string[], options: VerbOptions, output: Output): Promise<number> {
  const [verb, ...args] = positionals;
  const request = controlRequest(verb!, args, options);
  const { url: base, source } = sandboxAddress(options.url);
  let answer: Response;
  try {
    answer = await fetch(`${base}/_sandbox${request.path}`, {
      method: request.method,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body), headers: { 'content-type': 'application/json' } }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? 'no answer';
    output.err(
      `contrato: no sandbox answers at ${base} (${cause}; address ${source}); start one with contrato sandbox or npm start, or name it with --url or ${sandboxUrlVariable}`,
    );
    return 1;
  }
  const text = await answer.text();
  if (!answer.ok) {
    let detail = text;
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
    } catch {}
    output.err(`contrato: sandbox ${verb}: ${answer.status} ${detail}`);
    return 1;
  }
  output.out(text === '' ? 'done' : JSON.stringify(JSON.parse(text), null, 2));
  return 0;
}
