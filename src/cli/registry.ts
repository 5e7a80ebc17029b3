/**
 * Where the CLI finds each interface's generated modules. Static import() calls, one per interface,
 * so a bundler keeps them apart and the CLI loads only the interface it is asked about.
 */
import { fileURLToPath } from 'node:url';
import type { OperationInfo } from '../runtime/contract.js';
import type { InterfaceName } from '../interfaces.js';
import type { CrossFieldChecks } from '../runtime/cross-field.js';
import type { OperationValidatorSet } from '../runtime/runtime.js';
import type { CompiledValidator } from '../runtime/validation.js';

export interface InterfaceModules {
  readonly operationTable: Readonly<Record<string, OperationInfo>>;
  readonly patternDescriptions: Readonly<Record<string, string>>;
  readonly crossFieldChecks: CrossFieldChecks;
  readonly validators: {
    readonly schemas: Readonly<Record<string, CompiledValidator>>;
    readonly operations: Readonly<Record<string, OperationValidatorSet>>;
  };
}

/** Modules of several documents seen as one (the pix API and its payload locations share a CLI name). */
function merged(parts: readonly InterfaceModules[]): InterfaceModules {
  return {
    operationTable: Object.assign({}, ...parts.map((part) => part.operationTable)),
    validators: {
      schemas: Object.assign({}, ...parts.map((part) => part.validators.schemas)),
      operations: Object.assign({}, ...parts.map((part) => part.validators.operations)),
    },
    patternDescriptions: Object.assign({}, ...parts.map((part) => part.patternDescriptions)),
    crossFieldChecks: Object.assign({}, ...parts.map((part) => part.crossFieldChecks)),
  };
}

async function pixLocationModules(): Promise<InterfaceModules> {
  const [operations, validators] = await Promise.all([
    import('../../generated/pix-location/operations.js'),
    import('../../generated/pix-location/validators.js'),
  ]);
  return {
    operationTable: operations.operationTable,
    validators: validators.validators as InterfaceModules['validators'],
    patternDescriptions: validators.patternDescriptions,
    crossFieldChecks: {},
  };
}

const loaders: Record<InterfaceName, () => Promise<InterfaceModules>> = {
  pix: async () => {
    const [operations, validators, checks, location] = await Promise.all([
      import('../../generated/pix/operations.js'),
      import('../../generated/pix/validators.js'),
      import('../pix/checks.js'),
      pixLocationModules(),
    ]);
    const api: InterfaceModules = {
      operationTable: operations.operationTable,
      validators: validators.validators as InterfaceModules['validators'],
      patternDescriptions: validators.patternDescriptions,
      crossFieldChecks: checks.pixChecks,
    };
    return merged([api, location]);
  },
  'pix-location': pixLocationModules,
  accounts: async () => {
    const [operations, validators, checks] = await Promise.all([
      import('../../generated/accounts/operations.js'),
      import('../../generated/accounts/validators.js'),
      import('../accounts/checks.js'),
    ]);
    return {
      operationTable: operations.operationTable,
      validators: validators.validators as InterfaceModules['validators'],
      patternDescriptions: validators.patternDescriptions,
      crossFieldChecks: checks.accountsChecks,
    };
  },
  messages: async () => {
    const [operations, validators] = await Promise.all([
      import('../../generated/messages/operations.js'),
      import('../../generated/messages/validators.js'),
    ]);
    return {
      operationTable: operations.operationTable,
      validators: validators.validators as InterfaceModules['validators'],
      patternDescriptions: validators.patternDescriptions,
      crossFieldChecks: {},
    };
  },
  'core-banking': async () => {
    const [operations, validators, checks] = await Promise.all([
      import('../../generated/core-banking/operations.js'),
      import('../../generated/core-banking/validators.js'),
      import('../core-banking/checks.js'),
    ]);
    return {
      operationTable: operations.operationTable,
      validators: validators.validators as InterfaceModules['validators'],
      patternDescriptions: validators.patternDescriptions,
      crossFieldChecks: checks.coreBankingChecks,
    };
  },
};

export function loadInterface(name: InterfaceName): Promise<InterfaceModules> {
  return loaders[name]();
}

/** The bundled OpenAPI document of an interface (input of Prism and of the docs). */
export function bundledSpecPath(name: InterfaceName): string {
  return fileURLToPath(new URL(`../../generated/${name}/openapi.json`, import.meta.url));
}
