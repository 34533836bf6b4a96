import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  audiencePath,
  basePath,
  deref,
  isScope,
  openapi,
  operation,
  operationKeys,
  operations,
  rateLimitHeaders,
  resolvePointer,
  tokenPath,
  type JsonObject,
} from '../index.ts';

const validate = async (document: unknown) => new Validator().validate(document as Parameters<Validator['validate']>[0]);

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(openapi));
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('fails validation when a response lacks its description (the validator can fail)', async () => {
    const broken = structuredClone<JsonObject>(openapi);
    const paths = broken.paths as Record<string, Record<string, JsonObject>>;
    const post = paths['/event-streams/{id}/redeliver/{event_id}']!.post!;
    delete ((post.responses as JsonObject)['202'] as JsonObject).description;
    const result = await validate(broken);
    expect(result.valid).toBe(false);
  });

  it('has the version 2 base path and spec version 2.0', () => {
    expect(basePath).toBe('/api/v2');
    expect((openapi.info as JsonObject).version).toBe('2.0');
  });

  it('lists the five release lifecycle values', () => {
    expect((openapi.info as JsonObject)['x-release-lifecycle-values']).toEqual([
      'Early Access',
      'Generally Available',
      'Deprecated',
      'Planned',
      'Beta',
    ]);
  });

  it('holds exactly the three operations, one per key', () => {
    expect(operations.map((op) => op.key).sort()).toEqual([...operationKeys].sort());
  });

  it('marks redelivery and three ticket request fields Generally Available', () => {
    const post = resolvePointer('#/paths/~1event-streams~1{id}~1redeliver~1{event_id}/post') as JsonObject;
    expect(post['x-lifecycle']).toBe('Generally Available');
    const body = deref(resolvePointer('#/components/schemas/SsoTicketRequest')).properties as JsonObject;
    for (const field of ['provisioning_config', 'use_for_organization_discovery', 'enabled_features']) {
      expect(deref(body[field])['x-lifecycle'], field).toBe('Generally Available');
    }
  });

  it('declares the redelivery route, its failure statuses and its scope', () => {
    const op = operation('redeliver');
    expect(op).toMatchObject({
      operationId: 'post_redeliver_by_event_id',
      method: 'POST',
      pathTemplate: '/event-streams/{id}/redeliver/{event_id}',
      contractScopes: ['update:event_deliveries'],
      requiresGlobalClient: true,
    });
    expect(op.responseStatuses).toEqual(['202', '401', '403', '404', '409', '429']);
  });

  it('declares the ticket route with its headers and body', () => {
    const op = operation('sso-ticket');
    expect(op.method).toBe('POST');
    expect(op.pathTemplate).toBe('/self-service-profiles/{id}/sso-ticket');
    expect(op.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:id:true',
      'header:tenant-custom-domain:false',
      'header:Authorization:true',
    ]);
    expect(op.requestBodyRef).toBe('#/components/schemas/SsoTicketRequest');
  });

  it('declares the vault read route', () => {
    const op = operation('vault');
    expect(op.method).toBe('GET');
    expect(op.pathTemplate).toBe('/flows/vault/connections/{id}');
  });

  it('declares both security schemes, bearer JWT and client credentials', () => {
    const schemes = (openapi.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const flow = (schemes.oAuth2ClientCredentials!.flows as JsonObject).clientCredentials as JsonObject;
    expect(new URL(flow.tokenUrl as string).pathname).toBe('/oauth/token/');
    expect(tokenPath).toBe('/oauth/token/');
    expect(audiencePath).toBe('/api/v2/');
    expect(openapi.security).toEqual([{ bearerAuth: [] }, { oAuth2ClientCredentials: [] }]);
  });

  it('lists only catalogue scopes in the client-credentials flow', () => {
    const schemes = (openapi.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    const flow = (schemes.oAuth2ClientCredentials!.flows as JsonObject).clientCredentials as JsonObject;
    const scopes = Object.keys(flow.scopes as JsonObject);
    expect(scopes.length).toBeGreaterThan(0);
    expect(scopes.filter((s) => !isScope(s))).toEqual([]);
  });

  it('requires the three rate-limit headers on every 429', () => {
    expect(rateLimitHeaders).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    const tooMany = resolvePointer('#/components/responses/TooManyRequests') as JsonObject;
    const headers = tooMany.headers as Record<string, JsonObject>;
    for (const name of rateLimitHeaders) expect(headers[name]?.required, name).toBe(true);
    for (const op of operations) expect(op.responseStatuses, op.key).toContain('429');
  });
});
