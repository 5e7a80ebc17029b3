/**
 * Client of the Pix receiving API (interface B: the Central Bank's standard API Pix as this platform
 * serves it): token from POST /oauth/token with HTTP Basic client authentication over mutual TLS, the
 * typed facade of every operation, cross-field checks before sending, and readers of the payload
 * locations a dynamic QR code points to (decoded from their JWS and checked against the contract).
 */
import { createPixFacade, operationTable, type PixFacade } from '../../generated/pix/operations.js';
import { operationTable as locationOperationTable } from '../../generated/pix-location/operations.js';
import type { components as locationComponents } from '../../generated/pix-location/types.js';
import { pixTokenFlow } from '../runtime/auth-flows.js';
import { ConfigurationError, ResponseValidationError } from '../runtime/errors.js';
import { decodeJws } from '../runtime/jws.js';
import { commonRuntimeOptions, tokenCacheFor, transportFor, withRoutes, type ClientOptions } from '../runtime/client-options.js';
import { createRuntime, type OperationValidatorSet } from '../runtime/runtime.js';
import { checkBaseUrl, type TlsOptions } from '../runtime/transport.js';
import { check, type CompiledValidator } from '../runtime/validation.js';
import { pixChecks } from './checks.js';

/** Options of the pix client; `baseUrl` is `{qr_base_url}` (with its /v2). */
export interface PixClientOptions extends ClientOptions {
  /** Scopes to ask for (space-separated, e.g. "cob.read cob.write"); the credential's when omitted. */
  readonly scope?: string;
}

type LocationSchemas = locationComponents['schemas'];

/** A payload read from a location: the decoded payload, and the JWS to verify with the PSP's key. */
export interface LocationPayload<T> {
  readonly payload: T;
  readonly jws: string;
  readonly header: Record<string, unknown>;
}

export type PixClient = PixFacade & {
  /** Readers of the payload locations a dynamic QR code (its field 26.25) points to. */
  readonly locations: {
    cob(location: string): Promise<LocationPayload<LocationSchemas['CobPayload']>>;
    cobv(location: string, query?: { codMun?: string; DPP?: string }): Promise<LocationPayload<LocationSchemas['CobVPayload']>>;
    rec(location: string): Promise<LocationPayload<LocationSchemas['RecPayload']>>;
  };
  rotateCertificate(tls: TlsOptions): void;
  close(): Promise<void>;
};

/** Splits a location ("pix.example.com/qr/v2/cobv/abc", scheme optional) into the base and the token. */
export function splitLocation(location: string, prefix: '' | '/cobv' | '/rec'): { baseUrl: string; token: string } {
  const url = new URL(/^https?:\/\//i.test(location) ? location : `https://${location}`);
  const segments = url.pathname.split('/').filter(Boolean);
  const token = segments.pop();
  if (prefix && segments.pop() !== prefix.slice(1))
    throw new ConfigurationError(`${location} is not a ${prefix.slice(1)} location (…${prefix}/<token>)`);
  if (!token) throw new ConfigurationError(`${location} has no access token segment`);
  return { baseUrl: `${url.origin}${segments.length ? `/${segments.join('/')}` : ''}`, token: decodeURIComponent(token) };
}

export function createPixClient(options: PixClientOptions): PixClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const transport = transportFor(options);
  const issue = pixTokenFlow(baseUrl, options);
  const tokens = tokenCacheFor(options, () => issue(transport.fetch));
  // The API Pix publishes no rate limits for this platform: the limiter is off unless asked for.
  const common = commonRuntimeOptions(options, transport, tokens);
  // The validator modules are loaded with the first call that needs them (import cost, npm run bench).
  const loadPix = async () => {
    const { validators, patternDescriptions } = await import('../../generated/pix/validators.js');
    return { operations: validators.operations as Record<string, OperationValidatorSet>, patternDescriptions };
  };
  const loadLocation = async () => {
    const [{ validators }, pix] = await Promise.all([import('../../generated/pix-location/validators.js'), loadPix()]);
    return {
      operations: validators.operations as Record<string, OperationValidatorSet>,
      patternDescriptions: pix.patternDescriptions,
      schemas: validators.schemas as Record<string, CompiledValidator>,
    };
  };
  const runtime = createRuntime({
    ...common,
    baseUrl,
    operations: withRoutes(operationTable, options.routes),
    loadValidators: loadPix,
    tokens,
    basicCredentials: { clientId: options.clientId, clientSecret: options.clientSecret },
    crossFieldChecks: pixChecks,
  });

  async function readLocation<T>(
    operationId: 'cobPayload.get' | 'cobvPayload.get' | 'rec.getPayload',
    location: string,
    prefix: '' | '/cobv' | '/rec',
    query?: object,
  ): Promise<LocationPayload<T>> {
    const { baseUrl: locationBase, token } = splitLocation(location, prefix);
    const info = locationOperationTable[operationId];
    const parameter = info.parameters.find((p) => p.in === 'path')!.name;
    const locationFacade = createRuntime({
      ...common,
      baseUrl: checkBaseUrl(locationBase),
      operations: locationOperationTable,
      loadValidators: loadLocation,
    });
    const jws = (await locationFacade.invoke(operationId, { path: { [parameter]: token }, ...(query ? { query } : {}) })) as string;
    let decoded;
    try {
      decoded = decodeJws(jws);
    } catch (error) {
      throw new ResponseValidationError(operationId, 200, [{ pointer: '', rule: 'jws', message: (error as Error).message }]);
    }
    const schema = info.jwsPayload!;
    const checks = await loadLocation();
    const validator = checks.schemas[schema];
    const issues = validator ? check(validator, decoded.payload, '', checks.patternDescriptions) : [];
    if (issues.length > 0 && options.responseValidation === 'strict') throw new ResponseValidationError(operationId, 200, issues);
    return { payload: decoded.payload as T, jws, header: decoded.header };
  }

  return Object.assign(createPixFacade(runtime), {
    locations: {
      cob: (location: string) => readLocation<LocationSchemas['CobPayload']>('cobPayload.get', location, ''),
      cobv: (location: string, query?: { codMun?: string; DPP?: string }) =>
        readLocation<LocationSchemas['CobVPayload']>('cobvPayload.get', location, '/cobv', query),
      rec: (location: string) => readLocation<LocationSchemas['RecPayload']>('rec.getPayload', location, '/rec'),
    },
    rotateCertificate: (tls: TlsOptions) => transport.rotate(tls),
    close: () => transport.close(),
  });
}

export { operationTable } from '../../generated/pix/operations.js';
export type { components, operations, paths } from '../../generated/pix/types.js';
export * from '../runtime/client-options.js';
