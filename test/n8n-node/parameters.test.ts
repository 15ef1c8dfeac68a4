/**
 * Published workflows store the action node's and the trigger's parameters by name and value. The
 * fields are generated from the core's registry, so a registry edit could silently rename an
 * operation, drop a field or change a default under every saved workflow. This test compares
 * what workflows depend on (operations, field names, types, defaults, ranges, where each field
 * shows) with a committed snapshot; display text (names shown, descriptions, placeholders) is left
 * out so wording can change freely.
 *
 * A deliberate change: run `UPDATE_N8N_PARAMETERS=1 npx jest test/n8n-node/parameters.test.ts`,
 * review the diff of parameters.snapshot.json, and say in the changelog what saved workflows see.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  INodeProperties,
  INodePropertyCollection,
  INodePropertyOptions,
  INodeTypeDescription,
} from 'n8n-workflow';
import { IgData } from '../../n8n-node/nodes/IgData/IgData.node';
import { IgDataTrigger } from '../../n8n-node/nodes/IgData/IgDataTrigger.node';

type Shape = Record<string, unknown>;

function fieldShape(p: INodeProperties): Shape {
  const out: Shape = { name: p.name, type: p.type, default: p.default };
  if (p.required) out.required = true;
  if (p.noDataExpression) out.noDataExpression = true;
  if (p.typeOptions) out.typeOptions = p.typeOptions;
  if (p.displayOptions) out.displayOptions = p.displayOptions;
  if (p.type === 'options' || p.type === 'multiOptions')
    out.values = (p.options as INodePropertyOptions[]).map((o) => o.value);
  if (p.type === 'collection') out.options = (p.options as INodeProperties[]).map(fieldShape);
  if (p.type === 'fixedCollection') {
    out.options = (p.options as INodePropertyCollection[]).map((o) => ({
      name: o.name,
      values: o.values.map(fieldShape),
    }));
  }
  return out;
}

function nodeShape(d: INodeTypeDescription): Shape {
  return {
    name: d.name,
    version: d.version,
    polling: d.polling ?? false,
    usableAsTool: d.usableAsTool ?? false,
    credentials: (d.credentials ?? []).map((c) => ({ name: c.name, required: c.required ?? false })),
    properties: d.properties.map(fieldShape),
  };
}

const file = join(__dirname, 'parameters.snapshot.json');

test("the nodes' parameters are what saved workflows were built with", () => {
  const now = {
    igData: nodeShape(new IgData().description),
    igDataTrigger: nodeShape(new IgDataTrigger().description),
  };
  if (process.env.UPDATE_N8N_PARAMETERS === '1') writeFileSync(file, `${JSON.stringify(now, null, 2)}\n`);
  const committed = JSON.parse(readFileSync(file, 'utf8'));
  expect(JSON.parse(JSON.stringify(now))).toEqual(committed);
});
