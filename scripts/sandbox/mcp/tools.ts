/**
 * The MCP tools: one per registry endpoint (§5 item 5), read off the OpenAPI document that core
 * builds from the registry, so a tool and its REST operation cannot disagree. The name is the
 * endpoint path with underscores for slashes (`profile/posts` -> `profile_posts`), the input schema
 * is the query parameters (types, ranges, defaults, required), the description is the
 * registry's with its cost (core's describeCost).
 */
import { buildOpenApi, endpoints, pathOf, type EndpointDef } from '@igdata/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const toolName = (e: EndpointDef): string => e.id.replace(/\//g, '_');

interface OpenApiParam {
  name: string;
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
  example?: unknown;
}
interface OpenApiOperation {
  summary: string;
  description: string;
  parameters: OpenApiParam[];
}

function toolOf(e: EndpointDef, op: OpenApiOperation): Tool {
  const properties: Record<string, object> = {};
  for (const p of op.parameters) {
    properties[p.name] = {
      ...p.schema,
      description: p.description,
      ...(p.example === undefined ? {} : { examples: [p.example] }),
    };
  }
  return {
    name: toolName(e),
    title: op.summary,
    description: op.description,
    inputSchema: { type: 'object', properties, required: op.parameters.filter((p) => p.required).map((p) => p.name) },
    // Reads public data and changes nothing but the caller's balance: every call is billed.
    annotations: {
      title: op.summary,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

let tools: Tool[] | undefined;
/** Every tool, in registry order. */
export function allTools(): Tool[] {
  if (!tools) {
    // The base URL does not show in operations.
    const paths = buildOpenApi('').paths as Record<string, { get: OpenApiOperation }>;
    tools = endpoints.map((e) => toolOf(e, paths[pathOf(e)].get));
  }
  return tools;
}
