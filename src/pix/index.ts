/**
 * Client of the Pix receiving API (interface B: the Central Bank's standard API Pix as this platform
 * serves it): token from POST /oauth/token with HTTP Basic client authentication over mutual TLS, the
 * typed facade of every operation, cross-field checks before sending, and readers of the payload
 * locations a dynamic QR code points to (decoded from their JWS and checked against the contract).
 */
import { createPixFacade, operationTable, type PixFacade } from '../../generated/pix/operations.js';
import { operationTable as locationOperationTable } from '../../generated/pix-location/operations.js';
import type { components as locationComponents } from '../../generated/pix-location/types.js';
import { type ClientCore, createClientCore } from '../runtime/client.js';
import { ConfigurationError, ResponseValidationError } from '../runtime/errors.js';
import { decodeJws } from './jws.js';
import { check } from '../runtime/validation.js';
import { loadPixLocation, type PixClientOptions, pixDefinition } from './definition.js';

export type { PixClientOptions } from './definition.js';

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
} & ClientCore['lifecycle'];

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
  const core = createClientCore(pixDefinition, operationTable, options);
  // The validator modules are loaded with the first call that needs them (import cost, npm run bench).
  let location: ReturnType<typeof loadPixLocation> | undefined;
  const loadLocation = () => (location ??= loadPixLocation());
  const locationChecks = async () => {
    const modules = await loadLocation();
    return { validators: modules.validators.operations, patternDescriptions: modules.patternDescriptions };
  };

  async function readLocation<T>(
    operationId: 'cobPayload.get' | 'cobvPayload.get' | 'rec.getPayload',
    location: string,
    prefix: '' | '/cobv' | '/rec',
    query?: object,
  ): Promise<LocationPayload<T>> {
    const { baseUrl: locationBase, token } = splitLocation(location, prefix);
    const info = locationOperationTable[operationId];
    const parameter = info.parameters.find((p) => p.in === 'path')!.name;
    const locationRuntime = core.runtime({
      document: { baseUrl: locationBase, operations: locationOperationTable, checks: locationChecks },
    });
    const jws = (await locationRuntime.invoke(operationId, { path: { [parameter]: token }, ...(query ? { query } : {}) })) as string;
    let decoded: ReturnType<typeof decodeJws>;
    try {
      decoded = decodeJws(jws);
    } catch (error) {
      throw new ResponseValidationError(operationId, 200, [{ pointer: '', rule: 'jws', message: (error as Error).message }]);
    }
    const schema = info.jwsPayload!;
    const modules = await loadLocation();
    const validator = modules.validators.schemas[schema];
    const issues = validator ? check(validator, decoded.payload, '', modules.patternDescriptions) : [];
    if (issues.length > 0 && options.responseValidation === 'strict') throw new ResponseValidationError(operationId, 200, issues);
    return { payload: decoded.payload as T, jws, header: decoded.header };
  }

  return Object.assign(createPixFacade(core.runtime()), {
    locations: {
      cob: (location: string) => readLocation<LocationSchemas['CobPayload']>('cobPayload.get', location, ''),
      cobv: (location: string, query?: { codMun?: string; DPP?: string }) =>
        readLocation<LocationSchemas['CobVPayload']>('cobvPayload.get', location, '/cobv', query),
      rec: (location: string) => readLocation<LocationSchemas['RecPayload']>('rec.getPayload', location, '/rec'),
    },
    ...core.lifecycle,
  });
}

export { operationTable } from '../../generated/pix/operations.js';
export type { components, operations, paths } from '../../generated/pix/types.js';
/** The named types of every operation: `<Group><Name>Params`, `…Path`, `…Query`, `…Body`, `…Result`, `…Item` (generated/README.md). */
export type * from '../../generated/pix/named-types.js';
// The payload locations' operations (`locations.cob()`, `.cobv()`, `.rec()`) have named types too.
export type * from '../../generated/pix-location/named-types.js';
export * from '../runtime/client-options.js';
export {
  checkPixNotification,
  isPixNotificationKind,
  notificationKey,
  type NotificationItem,
  type NotifiedCobR,
  type NotifiedItems,
  type NotifiedPix,
  type NotifiedRec,
  parsePixNotification,
  type ParsePixNotificationOptions,
  PixNotificationError,
  type PixNotificationKind,
  pixNotificationKinds,
} from './notifications.js';
export {
  createPixNotificationHandler,
  type NotificationContext,
  notificationKindOf,
  type PixNotificationHandlerOptions,
} from './notification-handler.js';
export { memoryDeliveryStore, type DeliveryStore } from '../events/store.js';
export {
  cancellableConfirmationStatuses,
  checkBatchChargeChangeable,
  checkChargeChangeable,
  checkConfirmationCancellable,
  checkRecurringChargeCancellable,
  finalRecurringChargeStatuses,
  unsettledBatchStatuses,
} from './read-checks.js';
