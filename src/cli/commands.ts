/** The commands of `contrato`: names, usage lines and options (the grammar; program.ts runs them). */
import { formats } from '../formats/registry.js';
import { definitions, interfaces } from '../interfaces.js';
import { sandboxCredentialsOf, sandboxSecret } from '../runtime/definition.js';
import type { CommandSpec, OptionSpec } from './arguments.js';
import { defaultBasePort, defaultHost } from './ports.js';

const interfaceNames = interfaces.map((info) => info.name).join(', ');
/** Each mock's offset from the base port, from the mock ports of the definitions. */
const mockOffsets = interfaces
  .map((info, index) => `${info.name} ${index === 0 ? '<n>' : ''}+${info.mockPort - defaultBasePort}`)
  .join(', ');
const portOption: OptionSpec = {
  name: 'port',
  value: '<n>',
  description: `base port (default ${defaultBasePort}): the docs site on <n>, the sandbox on <n>+10, each mock at its offset (${mockOffsets}); 0 gives each a free port`,
};
const hostOption: OptionSpec = {
  name: 'host',
  value: '<address>',
  description: `address to listen on (default ${defaultHost}; 0.0.0.0 for every interface of this machine)`,
};
const dynamicOption: OptionSpec = {
  name: 'dynamic',
  description: 'answers generated from the schemas (seeded, the same every run) instead of the examples',
};
const sandboxOptions: readonly OptionSpec[] = [
  { name: 'seed', value: '<text>', description: 'seed of every id the sandbox makes (default contrato): the same seed repeats a run' },
  { name: 'speed', value: '<n>', description: 'sandbox seconds per real second (default 1): 60 plays a 2-minute webhook resend in 2 s' },
  { name: 'snapshot', value: '<file>', description: 'keep the sandbox state in this JSON file, so a restart finds what was created' },
  {
    name: 'tls',
    value: '<dir>',
    description: 'mutual TLS with the files contrato dev-certs wrote in <dir>: HTTPS, and a client certificate of its CA required',
  },
];
const siteOption: OptionSpec = {
  name: 'site',
  value: '<dir>',
  description: 'folder the docs site is built into and served from (default ./site)',
};

export const commands = [
  {
    name: 'validate',
    summary: 'check a JSON document against a request, a response, a schema, an event or a message',
    usage: [
      'validate <interface> <METHOD> <path[?query]> request [file|-] [--header name:value]...',
      'validate <interface> <METHOD> <path> response:<STATUS> [file|-] [--strict] [--base-url <url>]',
      'validate <interface> schema <Name> [file|-]',
      'validate events <type> [file|-]',
      'validate pix-notification <pix|rec|cobr> [file|-]',
      'validate messages <message> [file|-]',
    ],
    options: [
      {
        name: 'header',
        value: '<name:value>',
        description: 'a request header, checked with the query and path parameters (repeatable)',
        repeatable: true,
      },
      {
        name: 'strict',
        description:
          'a response as its provider must send it: known values are closed lists and members the spec does not list are refused',
      },
      {
        name: 'base-url',
        value: '<url>',
        description: "the address the response came from: a problem's type must then be {base_url}/errors/<type> at that address",
      },
    ],
    notes: [
      `interfaces: ${interfaceNames}`,
      "A request's path may carry its query string ('/cob?inicio=…&fim=…'); an operation without a body reads no document.",
      "A problem answer's status must equal the HTTP status, and its type must have the shape of section 7 and name an error type the operation declares for that status.",
      'events: the type as delivered (TRANSFER, invoice.paid, crypto.order.updated, ...)',
      'pix-notification: a body the PSP POSTs to <webhookUrl>/pix, /rec or /cobr (API Pix notifications)',
      'messages: by the names of the interface specification (pacs.008, pain.012-authorization, dict.create-key, ...)',
      'The document is read from the file, or from standard input when it is - or absent. One line per problem: pointer, rule, value.',
    ],
  },
  {
    name: 'diff',
    summary: 'classify the changes between two bundled specs (exit 1 on a breaking change without a new major version)',
    usage: ['diff <old> <new> [--corrections <file>]'],
    options: [
      {
        name: 'corrections',
        value: '<file>',
        description:
          'breaking changes that correct a defect of the released contract, each { where, change, reason } as reported (YAML or JSON): printed as CORRECTION, they do not fail the diff; a listed one that no longer occurs does',
      },
    ],
    notes: [
      'Both files are bundled specs, JSON or YAML (generated/<interface>/openapi.json, specs/releases/...).',
      'A release keeps its corrections next to it: specs/releases/<interface>/<version>.corrections.yaml.',
    ],
  },
  {
    name: 'changelog',
    summary: 'write the contract changes of the root CHANGELOG.md: each latest release, the working version and the diff between them',
    usage: ['changelog [--check]'],
    options: [{ name: 'check', description: 'change nothing; exit 1 when CHANGELOG.md is stale' }],
    notes: [
      'In a checkout of contrato (npm run changelog is the same). Rewrites only the lines between <!-- contract-changes:begin --> and <!-- contract-changes:end -->; exit 2 when they are missing.',
      'Per interface: the highest specs/releases/<interface>/<version>.json, info.version of generated/<interface>/openapi.json, and what contrato diff reports between them with the release corrections applied.',
    ],
  },
  {
    name: 'db',
    summary: 'create or update the PostgreSQL tables of contrato/postgres (inbox, poll cursors, call journal, rate limit)',
    usage: ['db migrate <DATABASE_URL> [--schema <name>]'],
    options: [{ name: 'schema', value: '<name>', description: 'the schema that holds the tables (default contrato)' }],
    notes: [
      'Applies the SQL files shipped in the package that the database has not seen, each once, in a transaction of its own; a second run changes nothing.',
      'Needs the pg package beside contrato (npm install pg). DATABASE_URL may also come from the environment when the argument is left out.',
    ],
  },
  {
    name: 'format',
    summary: 'check one value against a Brazilian or Pix format',
    usage: ['format <name> <value>'],
    options: [],
    notes: [`formats: ${Object.keys(formats).join(', ')}`],
  },
  {
    name: 'brcode',
    summary: 'decode a Pix BR Code, or encode a static or dynamic one',
    usage: [
      'brcode decode <code|-> [--qr]',
      'brcode encode (--key <key> | --url <location>) --name <name> --city <city> [--amount <value>] [--txid <id>] [--description <text>] [--postal-code <cep>] [--qr]',
    ],
    options: [
      { name: 'key', value: '<key>', description: 'Pix key of a static code' },
      { name: 'url', value: '<location>', description: 'payload location of a dynamic code (without https://)' },
      { name: 'name', value: '<name>', description: 'merchant name' },
      { name: 'city', value: '<city>', description: 'merchant city' },
      { name: 'amount', value: '<value>', description: 'amount, as 10.50' },
      { name: 'txid', value: '<id>', description: 'transaction id of a static code' },
      { name: 'description', value: '<text>', description: 'free text shown to the payer (static code)' },
      { name: 'postal-code', value: '<cep>', description: 'merchant postal code' },
      { name: 'qr', description: 'draw the code as a QR in the terminal too, above the usual output, for a phone to scan' },
    ],
  },
  {
    name: 'mock',
    summary: 'serve Prism mocks of the interfaces on loopback; invalid requests get a 422 problem naming each violation',
    usage: ['mock [interface...] [--dynamic] [--port <n>] [--host <address>]'],
    options: [dynamicOption, portOption, hostOption],
    notes: [`interfaces: ${interfaceNames} (all when none is named)`],
  },
  {
    name: 'sandbox',
    summary: 'serve the stateful sandbox of the interfaces, or drive a running one (pay a charge, move the clock, plan a fault)',
    usage: [
      'sandbox [--port <n>] [--host <address>] [--seed <text>] [--speed <n>] [--snapshot <file>] [--tls <dir>]',
      'sandbox status | reset | deliveries [--url <sandbox>]',
      'sandbox pay <txid> | clock <seconds> | resend <delivery-id> [--url <sandbox>]',
      'sandbox fault <operationId> <unavailable|reset-after-processing|rate-limited|slow> [--count <n>] [--url <sandbox>]',
      'sandbox control <interface>/<verb> [json] [--url <sandbox>]',
    ],
    options: [
      portOption,
      hostOption,
      ...sandboxOptions,
      {
        name: 'url',
        value: '<sandbox>',
        description:
          'address of the running sandbox to drive; without it, $CONTRATO_SANDBOX_URL, else the sandbox npm start, contrato start or contrato sandbox runs for you on this machine (on whatever port), else http://127.0.0.1:4010',
      },
      { name: 'count', value: '<n>', description: 'how many calls a planned fault applies to (default 1)' },
    ],
    notes: [
      `The sandbox serves each interface under its prefix: ${interfaces.map((info) => info.sandboxPrefix).join(', ')}; its control plane is under /_sandbox.`,
      `Credentials it knows: ${definitions.flatMap((definition) => sandboxCredentialsOf(definition).map((credential) => credential.clientId)).join(', ')}, each with the secret ${sandboxSecret}.`,
    ],
  },
  {
    name: 'regenerate',
    summary:
      'regenerate generated/ and the docs site from specs/, only what changed; --watch again on every save (in a checkout of contrato)',
    usage: [
      'regenerate [--check] [--force] [--no-docs] [--out <dir>] [--specs <dir>] [--site <dir>]',
      'regenerate --watch [--no-serve] [--port <n>] [--host <address>] [--no-docs] [--out <dir>] [--specs <dir>] [--site <dir>]',
    ],
    options: [
      {
        name: 'watch',
        description:
          'stay and regenerate on every save under specs/ (one line per regeneration, with its time); serve the docs, which reload themselves, and the sandbox, restarted on the new modules; Ctrl-C stops',
      },
      { name: 'no-serve', description: 'with --watch: regenerate only, serve neither the docs nor the sandbox' },
      { name: 'check', description: 'change nothing; exit 1 when generated/ is stale or was edited by hand' },
      { name: 'force', description: 'regenerate every interface and rebuild every page, whatever changed' },
      { name: 'no-docs', description: 'leave the docs site alone' },
      { name: 'out', value: '<dir>', description: 'write the generated tree (and its manifest) into <dir> instead of generated/' },
      { name: 'specs', value: '<dir>', description: 'read the specs from <dir>, laid out as specs/ (default: specs/ of the checkout)' },
      siteOption,
      portOption,
      hostOption,
    ],
    notes: [
      'Runs scripts/regenerate.ts of the checkout it is started from (npm run regenerate is the same; npm run dev is regenerate --watch).',
      'What is regenerated follows generated/manifest.json: the spec files each interface reads ($refs included), so a file of specs/_shared/ regenerates every interface that uses it; a change of the generator regenerates all.',
    ],
  },
  {
    name: 'docs',
    summary: 'build (when stale) and serve the documentation site',
    usage: ['docs [--site <dir>] [--port <n>] [--host <address>]'],
    options: [siteOption, portOption, hostOption],
  },
  {
    name: 'start',
    summary: 'the sandbox of every interface and the docs site together, as npm start serves them (contrato mock serves the Prism mocks)',
    usage: ['start [--site <dir>] [--port <n>] [--host <address>] [--seed <text>] [--speed <n>] [--snapshot <file>]'],
    options: [siteOption, portOption, hostOption, ...sandboxOptions],
  },
  {
    name: 'verify',
    summary:
      'judge a running implementation of an interface against the contract: requests, refusals, tokens, idempotency, paging, state machines',
    usage: [
      `verify <interface> --base-url <url> [--client-id <id> --client-secret <secret>] [--allow-writes] [--only <names>] [--skip <names>] [--report <file>]`,
    ],
    options: [
      { name: 'base-url', value: '<url>', description: "the interface's address, the one its client takes (https, or http on loopback)" },
      { name: 'client-id', value: '<id>', description: 'the credential to present (or CONTRATO_CLIENT_ID)' },
      {
        name: 'client-secret',
        value: '<secret>',
        description: 'its secret (or CONTRATO_CLIENT_SECRET, which keeps it out of the shell history); never printed or reported',
      },
      {
        name: 'allow-writes',
        description: 'also run what creates, changes or pays anything, only on ids this run created (default: read-only)',
      },
      { name: 'only', value: '<names>', description: 'operations or tags to run, comma-separated (repeatable)', repeatable: true },
      { name: 'skip', value: '<names>', description: 'operations or tags to leave out, comma-separated (repeatable)', repeatable: true },
      {
        name: 'seed',
        value: '<text>',
        description: 'seed of the new ids, keys and variants (default: a new one, printed): the same seed repeats a run',
      },
      {
        name: 'rate',
        value: '<n>',
        description: "requests per second at most (default: inside the interface's published limits, section 8; 0: no limit)",
      },
      { name: 'timeout', value: '<ms>', description: 'time limit of each request, answer included (default 15000)' },
      {
        name: 'tls',
        value: '<dir>',
        description:
          'mutual TLS: the client certificate in <dir> (participant.pfx, or participant.pem + participant-key.pem; CONTRATO_TLS_PASSPHRASE opens it) and dev-ca.pem or ca.pem to trust',
      },
      {
        name: 'account-id',
        value: '<id>',
        description: 'the child account a BaaS credential operates (sent in the header each operation declares for it)',
      },
      {
        name: 'report',
        value: '<file>',
        description: 'also write the report: junit.xml for CI, report.html for a person (repeatable)',
        repeatable: true,
      },
    ],
    notes: [
      'Read-only by default: reads, the token request and refusals of reads. Writes run only with --allow-writes.',
      'A step that needs the platform to act (a payer pays, time passes) uses the sandbox control plane when the target has one, and is reported "needs the platform" otherwise.',
      'Exit status 1 when any check failed. Secrets, tokens and documents are masked in every output and report.',
    ],
  },
  {
    name: 'dev-certs',
    summary: 'write a throwaway development CA, a participant client certificate (PEM and PFX) and a localhost server certificate',
    usage: ['dev-certs [--dir <dir>] [--passphrase <text>] [--days <n>] [--force]'],
    options: [
      { name: 'dir', value: '<dir>', description: 'where the files go (default: the current folder)' },
      { name: 'passphrase', value: '<text>', description: 'protect the key in participant.pfx (default: no passphrase)' },
      { name: 'days', value: '<n>', description: 'validity in days (default 30)' },
      { name: 'force', description: 'overwrite files that exist' },
    ],
    notes: [
      'For development only: never use these certificates against the platform. Files: dev-ca.pem, participant.pem, participant-key.pem, participant.pfx, server.pem, server-key.pem (and dev-ca-key.pem).',
    ],
  },
  {
    name: 'help',
    summary: 'this overview, or the help of one command',
    usage: ['help [command]'],
    options: [],
  },
] as const satisfies readonly CommandSpec[];

export type CommandName = (typeof commands)[number]['name'];
