/**
 * The 200 answers the guides document are the ones the two receivers send: the webhook handler's table in
 * docs/guides/webhooks.md (one event: `received`, `duplicate`) and the Pix notification handler's in
 * docs/guides/pix-notifications.md (a list of items: `received` and `duplicates` count them). Each row is
 * read from the guide and played against a real receiver on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { memoryDeliveryStore } from '../../src/events/index.js';
import { closeReceivers, first, pix, second, startPixReceiver } from '../pix/notification-receiver.js';
import { invoicePaid, type Receiver, startReceiver } from './receiver.js';

/** The JSON of each 200 row of the guide's "What the handler answers" table, by the start of its situation. */
function documentedAnswers(guide: string): Map<string, unknown> {
  const text = readFileSync(join(projectRoot, 'docs/guides', guide), 'utf8');
  const table = text.slice(text.indexOf('## What the handler answers'));
  const rows = [...table.matchAll(/^\| ([^|]+) \| 200 `(\{[^`]*\})` \|/gm)];
  return new Map(rows.map((row) => [row[1]!.split(/[:(]/)[0]!.trim(), JSON.parse(row[2]!) as unknown]));
}

afterEach(closeReceivers);
const webhookReceivers: Receiver[] = [];
afterAll(() => Promise.all(webhookReceivers.map((receiver) => receiver.close())));

describe('the documented answers', () => {
  it('of the webhook handler: one event, handled or a duplicate', async () => {
    const documented = documentedAnswers('webhooks.md');
    expect([...documented.keys()]).toEqual(['handled', 'duplicate']);
    const receiver = await startReceiver({ onEvent: () => {} });
    webhookReceivers.push(receiver);
    expect((await receiver.deliver(invoicePaid(4242))).body).toEqual(documented.get('handled'));
    expect((await receiver.deliver(invoicePaid(4242))).body).toEqual(documented.get('duplicate'));
  });

  it('of the Pix notification handler: the items of a notification counted', async () => {
    const documented = documentedAnswers('pix-notifications.md');
    expect([...documented.keys()]).toEqual(['every item handled now', 'some items handled before', 'every item handled before']);
    const store = memoryDeliveryStore();
    let fail = true;
    // The second Pix fails once: its resend finds the first handled before.
    const { post } = await startPixReceiver({
      store,
      onPix: (item) => {
        if (item.endToEndId === second && fail) {
          fail = false;
          throw new Error('not now');
        }
      },
    });
    const both = { pix: [pix(first), pix(second)] };
    expect((await post('/pix', both)).status).toBe(500);
    expect((await post('/pix', both)).body).toEqual(documented.get('some items handled before'));
    expect((await post('/pix', both)).body).toEqual(documented.get('every item handled before'));
    const { post: fresh } = await startPixReceiver({ onPix: () => {} });
    expect((await fresh('/pix', both)).body).toEqual(documented.get('every item handled now'));
  });
});
