/**
 * The exchange of interface C (sections 2.12 and 4.9): a payment sent (pacs.008) is answered by the other
 * side with a status report (pacs.002) on the receive queue, read by long polling `GET /messages/pull/{pullNext}`
 * from `start` and then the cursor each answer gives in `svc-pull-next`. The poll is bounded: the queue is read
 * up to its end before the payment is sent, then at most `pollsAfter` times for the answer.
 */
import { result } from '../checks/context.js';
import type { Flow, FlowContext, StepOutcome } from './flow.js';
import { FlowSteps, member } from './flow.js';

const pollsBefore = 20;
const pollsAfter = 10;

const cursorOf = (outcome: StepOutcome, sent: string): string | null => {
  const received = outcome.exchange.received;
  if (received.kind !== 'answer') return null;
  const key = Object.keys(received.headers).find((name) => name.toLowerCase() === 'svc-pull-next');
  const cursor = key === undefined ? undefined : received.headers[key];
  return typeof cursor === 'string' && cursor !== '' ? cursor : sent;
};

const poll = (context: FlowContext, pullNext: string) => {
  const args = context.example('messages.poll');
  return { ...args, path: { ...args.path, pullNext } };
};

const pacs008: Flow = {
  name: 'pacs.008 → pacs.002',
  interfaceName: 'messages',
  operations: ['pacs008.send', 'messages.poll'],
  async run(context) {
    const name = 'pacs.008 → pacs.002';
    const steps = new FlowSteps(name, context);
    const pollRule = 'the long poll answers a list and the next cursor';
    // To the end of the queue as it is: what comes after is this run's.
    let cursor = 'start';
    for (let count = 0; count < pollsBefore; count += 1) {
      const outcome = await steps.step('messages.poll', poll(context, cursor), 'success', pollRule, ({ body }) =>
        Array.isArray(body) ? null : 'the poll did not answer a list of messages',
      );
      if (!outcome) return steps.results;
      steps.results.pop();
      cursor = cursorOf(outcome, cursor) ?? cursor;
      if ((outcome.body as unknown[]).length === 0) break;
    }
    const sent = await steps.step('pacs008.send', context.example('pacs008.send'), 'success', 'a pacs.008 is accepted');
    if (!sent) return steps.results;
    const args = sent.exchange.request.body;
    const endToEnd = member(sent.body, 'endToEndID') ?? member(args, 'endToEndID');
    const instruction = member(sent.body, 'idMensagem');
    const rule = 'a pacs.002 answering it comes on the receive queue';
    for (let count = 0; count < pollsAfter; count += 1) {
      const outcome = await steps.step('messages.poll', poll(context, cursor), 'success', pollRule, ({ body }) =>
        Array.isArray(body) ? null : 'the poll did not answer a list of messages',
      );
      if (!outcome) return steps.results;
      steps.results.pop();
      cursor = cursorOf(outcome, cursor) ?? cursor;
      const report = (outcome.body as unknown[]).find(
        (message) =>
          member(message, 'idFimAFimOriginal') === endToEnd ||
          (instruction !== undefined && member(message, 'idInstrucaoOriginal') === instruction),
      );
      if (report === undefined) continue;
      const situation = member(report, 'situacaoDaTransacao');
      const wrong =
        member(report, 'idFimAFimOriginal') !== endToEnd
          ? `idFimAFimOriginal is ${JSON.stringify(member(report, 'idFimAFimOriginal'))}, expected ${JSON.stringify(endToEnd)}`
          : situation !== 'ACSP' && situation !== 'RJCT'
            ? `situacaoDaTransacao is ${JSON.stringify(situation)}, expected ACSP or RJCT`
            : null;
      steps.results.push(
        result(
          'messages.poll',
          'flow',
          `${name}: ${rule}`,
          wrong === null ? 'pass' : 'fail',
          wrong ?? `answered ${String(situation)} after ${count + 1} poll(s)`,
          wrong === null ? [] : [outcome.exchange],
        ),
      );
      return steps.results;
    }
    // The other participant answers on its own; within the polls it did not, which a target without the sandbox's
    // control plane may take longer for.
    steps.results.push(
      result(
        'messages.poll',
        'flow',
        `${name}: ${rule}`,
        context.control ? 'fail' : 'needs-platform',
        `no pacs.002 answering ${String(endToEnd)} within ${pollsAfter} polls`,
      ),
    );
    return steps.results;
  },
};

export const messagesFlows: readonly Flow[] = [pacs008];
