/** Reading a custom function's positional arguments (and a bulk request's, which reuses the rules). */
import type { EndpointDef } from '@igdata/core';
import { IgValidationError, expectedFor, isBlank, resolveParam, showValue } from '@igdata/core';
import { MAX_LIMIT, argLayout } from './layout';
import { bool, intIn, isRange, parseFields, single, targetCells } from './values';

/** A formula's arguments, read and checked. */
export interface FormulaArgs {
  endpoint: EndpointDef;
  /** The validated non-target parameters. */
  params: Record<string, unknown>;
  /** The raw target cells, in input order (one element for a single cell). */
  targets: unknown[];
  targetName?: string;
  isRangeInput: boolean;
  fields: string[];
  /** Undefined when the `header` argument was left blank (see `headerDefault`). */
  header?: boolean;
  limit?: number;
  refresh: boolean;
}

/** Reads a custom function's positional arguments. Throws IgValidationError before any request. */
export function parseArgs(endpoint: EndpointDef, args: unknown[]): FormulaArgs {
  const layout = argLayout(endpoint);
  const out: FormulaArgs = {
    endpoint,
    params: {},
    targets: [undefined],
    isRangeInput: false,
    fields: [],
    refresh: false,
  };
  if (args.length > layout.length) {
    throw new IgValidationError(
      'arguments',
      `at most ${layout.length} (${layout.map((a) => a.name).join(', ')})`,
      String(args.length),
    );
  }
  layout.forEach((spec, i) => {
    const v = args[i];
    switch (spec.role) {
      case 'target':
        // An argument left out (not a blank cell, which is a blank row) would answer a silent blank.
        if (v === undefined)
          throw new IgValidationError(spec.name, expectedFor(spec.param!), 'nothing (the argument is left out)');
        out.targetName = spec.name;
        out.isRangeInput = isRange(v);
        out.targets = targetCells(spec.name, v);
        break;
      case 'param': {
        const p = spec.param!;
        const x = single(p.name, v);
        if (isBlank(x)) {
          if (p.required) throw new IgValidationError(p.name, expectedFor(p), showValue(x));
        } else out.params[p.name] = resolveParam(p, x);
        break;
      }
      case 'fields':
        out.fields = parseFields(endpoint, v);
        break;
      case 'header':
        out.header = bool('header', v);
        break;
      case 'limit':
        out.limit = intIn('limit', v, 1, MAX_LIMIT);
        break;
      case 'refresh':
        out.refresh = bool('refresh', v) ?? false;
        break;
    }
  });
  return out;
}
