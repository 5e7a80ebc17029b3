// Load generator of bench/sandbox.ts, in a process of its own without the TypeScript loader, so the
// client's own cost is as small as it can be for both servers measured: argv url, total, concurrency,
// headers as JSON; prints requests per second.
import { Agent, request } from 'undici';

const [url, totalText, concurrencyText, headersJson] = process.argv.slice(2);
const total = Number(totalText);
const concurrency = Number(concurrencyText);
const headers = JSON.parse(headersJson);
const dispatcher = new Agent({ connections: concurrency });
for (let index = 0; index < 200; index += 1) await (await request(url, { headers, dispatcher })).body.dump();
let next = 0;
const worker = async () => {
  while (next < total) {
    next += 1;
    const answer = await request(url, { headers, dispatcher });
    await answer.body.dump();
    if (answer.statusCode !== 200) throw new Error(`GET ${url} answered ${answer.statusCode}`);
  }
};
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
console.log(total / ((performance.now() - started) / 1000));
await dispatcher.close();
