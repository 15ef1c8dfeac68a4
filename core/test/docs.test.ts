// The registry in two modules: runtime facts (registry/endpoints.ts) and documentation
// (registry/docs.ts, by endpoint id and parameter name). Every endpoint has both, and every
// parameter a description; the error table likewise (error-codes.ts, error-docs.ts).
import { ERROR_CODES, docsLink, documented, documentedEndpoints, endpoints, fieldPaths } from '../src';
import { SPEC_ERROR_CODES, endpointDocs } from './support/internals';

describe('every endpoint has its runtime facts and its docs', () => {
  it('the docs describe exactly the registry, in its order', () => {
    expect(Object.keys(endpointDocs)).toEqual(endpoints.map((e) => e.id));
    expect(documentedEndpoints.map((e) => e.id)).toEqual(endpoints.map((e) => e.id));
  });

  it('an endpoint without docs is an error, not an endpoint without a name', () => {
    expect(() => documented({ ...endpoints[0], id: 'not/in/docs' })).toThrow(/"not\/in\/docs" has no docs/);
  });

  describe.each(documentedEndpoints.map((e) => [e.id, e] as const))('%s', (_id, e) => {
    it('has a summary, a description, a docs group and n8n names', () => {
      for (const text of [e.summary, e.description, e.group, e.resource, e.operation]) expect(text).toMatch(/\S/);
    });

    it('describes every parameter; a text parameter in the runtime facts (its message quotes it), others in the docs', () => {
      const runtime = endpoints.find((x) => x.id === e.id)!;
      e.params.forEach((p, i) => {
        expect([p.name, p.description]).toEqual([p.name, expect.stringMatching(/\S/)]);
        expect([p.name, runtime.params[i].description !== undefined]).toEqual([p.name, p.kind === 'text']);
      });
    });

    it('has an example for its target, for the JSDoc example and the n8n placeholder', () => {
      const target = e.params[0];
      if (target && target.required && target.kind !== 'integer' && target.kind !== 'cursor')
        expect(target.example).toBeDefined();
    });

    it('shows a field of its answer in its example (exampleField)', () => {
      if (e.exampleField) expect([...fieldPaths(e.schema), ...e.columns]).toContain(e.exampleField);
    });
  });
});

describe('every error code has its facts and its docs', () => {
  it.each(Object.keys(ERROR_CODES))('%s has a docs link', (code) => {
    expect(docsLink(code)).toMatch(/^\/docs\/errors/);
  });

  it("the spec's codes have a summary for the OpenAPI document", () => {
    for (const { summary } of SPEC_ERROR_CODES) expect(summary).toMatch(/\S/);
  });
});
