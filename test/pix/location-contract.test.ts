/**
 * The payload locations against a real Prism process serving generated/pix-location: every operation
 * and response example through the generated facade, and the pix client's readers decoding the JWS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixLocationFacade, operationTable } from '../../generated/pix-location/operations.js';
import { patternDescriptions, validators } from '../../generated/pix-location/validators.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import { createPixClient } from '../../src/pix/index.js';
import type { OperationValidatorSet } from '../../src/runtime/pipeline.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { Transport } from '../../src/runtime/transport.js';
import { contractSuite } from '../helpers/contract-suite.js';
import { freePort } from '../helpers/ports.js';

contractSuite('pix-location', (baseUrl) =>
  createPixLocationFacade(
    createRuntime({
      baseUrl,
      operations: operationTable,
      checks: { validators: validators.operations as Record<string, OperationValidatorSet>, patternDescriptions },
      send: new Transport().send,
      responseValidation: 'strict',
      retry: { maxRetries: 0 },
    }),
  ),
);

describe('pix client location readers', () => {
  let prism: RunningServer;
  beforeAll(async () => {
    prism = await startMock('pix-location', await freePort());
  });
  afterAll(async () => prism?.stop());

  it.each([
    { reader: 'cob', location: (base: string) => `${base}/9d36b84fc70b478fb95c12729b90ca25`, wants: ['txid', 'valor'] },
    { reader: 'cobv', location: (base: string) => `${base}/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7`, wants: ['txid', 'valor'] },
    { reader: 'rec', location: (base: string) => `${base}/rec/2353c790eefb11eaadc10242ac120002`, wants: ['idRec'] },
  ] as const)('locations.$reader decodes the JWS payload and checks it against the contract', async ({ reader, location, wants }) => {
    const client = createPixClient({
      baseUrl: 'https://pix.example.com/api/v2',
      clientId: 'c',
      clientSecret: 'never-used-here',
      responseValidation: 'strict',
    });
    const read = await client.locations[reader](location(prism.url));
    expect(read.jws.split('.')).toHaveLength(3);
    expect(typeof read.header.alg).toBe('string');
    for (const member of wants) expect(read.payload).toHaveProperty(member);
  });
});
