/**
 * The client's telemetry does no span or metric work until the application registers a provider (the API's
 * own no-op spans cost tens of microseconds a call: npm run bench), and starts as soon as one is registered,
 * even for a client made before; `telemetry: false` stays off whatever is registered.
 */
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { clientTelemetry } from '../../src/runtime/telemetry.js';
import { operationTable } from '../../generated/core-banking/operations.js';

const info = operationTable['feeRules.list'] as OperationInfo;
const made = (option?: false) => clientTelemetry({ interfaceName: 'core-banking', baseUrl: 'https://bank.example.com', option });

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('client telemetry by what the application registered', () => {
  it.each([
    { given: 'nothing registered', register: () => {}, option: undefined, want: false },
    { given: 'a tracer provider', register: () => trace.setGlobalTracerProvider(new BasicTracerProvider()), option: undefined, want: true },
    { given: 'a meter provider', register: () => metrics.setGlobalMeterProvider(new MeterProvider()), option: undefined, want: true },
    {
      given: 'both, with telemetry: false',
      register: () => trace.setGlobalTracerProvider(new BasicTracerProvider()) && metrics.setGlobalMeterProvider(new MeterProvider()),
      option: false as const,
      want: false,
    },
  ])('$given: recording $want', ({ register, option, want }) => {
    const telemetry = made(option);
    // Before anything is registered, the shared no-op: the one `telemetry: false` hands out.
    expect(telemetry.call(info)).toBe(made(false).call(info));
    register();
    // A recording call is a new object each time; the no-op is always the same one.
    const [first, second] = [telemetry.call(info), telemetry.call(info)];
    expect(first !== second).toBe(want);
  });
});
