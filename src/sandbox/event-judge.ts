/**
 * The strict sandbox judges the events it sends as it judges its answers: a delivery whose body is an event
 * the accounts document declares (its `webhooks:`, section 6) is checked against that event's schema with
 * the strict rules (every object closed, every known value list closed). What fails is a drift, one line each.
 */
import { strictValidator } from '../checks/strict-response.js';
import { check, type CompiledValidator } from '../runtime/validation.js';
import type { Delivery, WebhookDispatcher } from './contract.js';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema of the event `type` in the bundle's `webhooks:`, undefined when the bundle declares none. */
function eventSchema(bundle: Json, type: string): unknown {
  const webhooks = isRecord(bundle.webhooks) ? bundle.webhooks : {};
  const event = webhooks[type];
  const post = isRecord(event) && isRecord(event.post) ? event.post : undefined;
  const body = post && isRecord(post.requestBody) && isRecord(post.requestBody.content) ? post.requestBody.content : undefined;
  const json = body && isRecord(body['application/json']) ? body['application/json'] : undefined;
  return json?.schema;
}

/** Drift lines of a delivery's body, empty when it is no declared event or a valid one. */
export function eventJudge(bundle: Json): (delivery: Delivery) => string[] {
  const validators = new Map<string, CompiledValidator | null>();
  return (delivery) => {
    const body = delivery.body;
    if (!isRecord(body) || typeof body.type !== 'string') return [];
    let validator = validators.get(body.type);
    if (validator === undefined) {
      const schema = eventSchema(bundle, body.type);
      validator = schema === undefined ? null : strictValidator(bundle, schema);
      validators.set(body.type, validator);
    }
    if (validator === null) return [];
    return check(validator, body).map((issue) => `event ${body.type}: ${issue.pointer || '(the body)'} ${issue.message}`);
  };
}

/** The dispatcher with every sent delivery judged first; drifts go to `onDrift`, the delivery is sent all the same. */
export function judgedDispatcher<Dispatcher extends WebhookDispatcher>(
  dispatcher: Dispatcher,
  judge: (delivery: Delivery) => string[],
  onDrift: (drift: string) => void,
): Dispatcher {
  return Object.assign(Object.create(dispatcher) as Dispatcher, {
    send(delivery: Delivery): string {
      for (const drift of judge(delivery)) onDrift(drift);
      return dispatcher.send(delivery);
    },
  });
}
