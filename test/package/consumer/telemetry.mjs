// Run in a consumer of the packed contrato: imports every subpath its package.json exports, then makes one call
// of the core banking client against a loopback server. With `with-sdk`, an OpenTelemetry SDK is registered
// first and the names of the spans the call made are printed; without, @opentelemetry/api must be absent.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const withSdk = process.argv[2] === 'with-sdk';
const manifest = JSON.parse(readFileSync('node_modules/contrato/package.json', 'utf8'));
const subpaths = Object.keys(manifest.exports).filter((subpath) => !subpath.endsWith('.json'));
for (const subpath of subpaths) await import(subpath === '.' ? 'contrato' : `contrato/${subpath.slice(2)}`);

let exporter;
if (withSdk) {
  const { trace } = await import('@opentelemetry/api');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
} else {
  const absent = await import('@opentelemetry/api').then(() => false, (error) => error.code === 'ERR_MODULE_NOT_FOUND');
  if (!absent) throw new Error('@opentelemetry/api is installed: this run is meant to prove contrato works without it');
}

const server = createServer((request, response) => {
  const body = request.url === '/auth/token'
    ? { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 }
    : { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { createCoreBankingClient } = await import('contrato/core-banking');
const client = createCoreBankingClient({ baseUrl: `http://127.0.0.1:${server.address().port}`, clientId: 'c', clientSecret: 's' });
const balance = await client.accounts.balance({ path: { id: 7 } });
await client.close();
server.close();
const spans = exporter ? exporter.getFinishedSpans().map((span) => span.name) : [];
console.log(JSON.stringify({ subpaths: subpaths.length, balance: balance.balance, spans }));
