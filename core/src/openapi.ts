/**
 * The OpenAPI 3.1 document of the service, generated from the registry and its docs (one path per
 * endpoint, parameters from its ParamDefs, response schemas from its schemas). Served by the sandbox at
 * /openapi.json; usable for docs. Pure: no I/O.
 */
import { documentedEndpoints as endpoints } from './registry/docs';
import { pathOf } from './registry/endpoints';
import type { EndpointDef, ParamDef, Shape } from './registry/types';
import { fieldShape } from './shape';
import { costSentence } from './cost';
import { SPEC_ERROR_CODES, docsLink } from './error-docs';

type Json = Record<string, unknown>;

/** JSON Schema of a response schema (objects allow other fields, as the checker does). */
function jsonSchemaOf(schema: Shape): Json {
  if (typeof schema === 'string') return { type: schema };
  if ('array' in schema) return { type: 'array', items: jsonSchemaOf(schema.array) };
  if ('record' in schema)
    return { type: 'object', propertyNames: { type: 'string' }, additionalProperties: jsonSchemaOf(schema.record) };
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(schema.object)) {
    const { shape, optional, nullable } = fieldShape(f);
    const json = jsonSchemaOf(shape);
    properties[name] = !nullable
      ? json
      : typeof shape === 'string'
        ? { type: [shape, 'null'] }
        : { anyOf: [json, { type: 'null' }] };
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: {} };
}

function paramSchema(p: ParamDef): Json {
  if (p.kind === 'integer') {
    const s: Json = { type: 'integer' };
    if (p.min !== undefined) s.minimum = p.min;
    if (p.max !== undefined) s.maximum = p.max;
    if (p.default !== undefined) s.default = p.default;
    return s;
  }
  const s: Json = { type: 'string' };
  if (p.default !== undefined) s.default = String(p.default);
  if (p.kind === 'text' && p.required) s.minLength = 1;
  return s;
}

const operationId = (e: EndpointDef) => e.id.replace(/[/-]/g, '_');

/** The whole document. `baseUrl` becomes the single server entry. */
export function buildOpenApi(baseUrl: string): Json {
  const paths: Json = {};
  for (const e of endpoints) {
    const item = jsonSchemaOf(e.schema);
    const data: Json =
      e.shape === 'list'
        ? {
            type: 'object',
            required: ['items', 'next_cursor'],
            properties: { items: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] } },
          }
        : item;
    const responses: Json = {
      '200': {
        description: e.shape === 'list' ? 'A page of items' : 'The result',
        headers: {
          'x-credits-remaining': { $ref: '#/components/headers/CreditsRemaining' },
          'x-request-id': { $ref: '#/components/headers/RequestId' },
        },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['data', 'meta'],
              properties: { data, meta: { $ref: '#/components/schemas/Meta' } },
            },
          },
        },
      },
    };
    for (const { status, code } of SPEC_ERROR_CODES)
      responses[String(status)] = { $ref: `#/components/responses/${code}` };
    paths[pathOf(e)] = {
      get: {
        operationId: operationId(e),
        tags: [e.group],
        summary: e.summary,
        description:
          `${e.description}\n\n${costSentence(e)}` +
          (e.documented
            ? ''
            : ' Parameters and response shape are not documented by the service; this is our reading.'),
        parameters: e.params.map((p) => {
          const o: Json = {
            name: p.name,
            in: 'query',
            required: p.required,
            description: p.description,
            schema: paramSchema(p),
          };
          if (p.example !== undefined) o.example = p.example;
          return o;
        }),
        responses,
        'x-credit-cost': e.cost,
        'x-shape': e.shape,
        'x-paginated': e.paginated,
      },
    };
  }
  const errorResponses: Json = {};
  for (const { code, summary: description } of SPEC_ERROR_CODES) {
    errorResponses[code] = {
      description,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { error: { code, message: description, docs: docsLink(code) }, meta: { request_id: 'req_example' } },
        },
      },
    };
  }
  const groups = [...new Set(endpoints.map((e) => e.group))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'IG Data API',
      version: '1.0.0',
      description:
        'Public social profile data: profiles, posts, reels, stories, hashtags, locations, search and insights, ' +
        'billed per request in credits. Every operation is GET with query parameters; responses are {data, meta}.',
    },
    servers: [{ url: baseUrl }],
    tags: groups.map((name) => ({ name })),
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'x-api-key: <API_KEY>' },
      },
      headers: {
        CreditsRemaining: { description: 'Balance after the charge', schema: { type: 'integer' } },
        RequestId: { description: 'Identifier of the request', schema: { type: 'string' } },
      },
      schemas: {
        Meta: {
          type: 'object',
          required: ['request_id'],
          properties: {
            endpoint: { type: 'string', description: 'Endpoint path without /v1/' },
            request_id: { type: 'string' },
            credits_charged: { type: 'integer' },
            credits_remaining: { type: 'integer' },
            ms: { type: 'integer' },
          },
        },
        Error: {
          type: 'object',
          required: ['error', 'meta'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: SPEC_ERROR_CODES.map((e) => e.code) },
                message: { type: 'string' },
                docs: { type: 'string' },
                reason: { type: 'string', description: 'On some 404s, e.g. private_account' },
              },
            },
            meta: { $ref: '#/components/schemas/Meta' },
          },
        },
      },
      responses: errorResponses,
    },
  };
}
