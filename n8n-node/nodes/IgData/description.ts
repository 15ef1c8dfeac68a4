/**
 * The action node's fields, generated from the core's endpoint registry (nothing is listed twice):
 * the resources and operations (operations.ts), the parameters' and paging fields (fields.ts) and
 * the Options collection (options.ts), in the order the editor shows them.
 */
import type { INodeProperties } from 'n8n-workflow';
import { fieldProperties } from './fields';
import { operationProperties } from './operations';
import { optionsProperty } from './options';

export const properties: INodeProperties[] = [...operationProperties, ...fieldProperties, optionsProperty];
