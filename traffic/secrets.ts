// The secrets a raw recording holds, so that the reports written from it can be rid of them: the
// bearer token and Basic credentials of each request, the client secret and client assertion of a
// token request, the access token of its answer, and the code of each SSO ticket URL. The
// redactor's patterns catch their shapes too; naming them is the sure way.
import { bearerTokenOf, bodyFields, issuedTokenOf, type RecordedExchange } from '../harness/exchange-record.ts';

const TICKET_CODE = /[?&]ticket=([^&\s"'<>\\]+)/g;

export function secretsOf(exchange: RecordedExchange): string[] {
  const { request, response } = exchange;
  const fields = bodyFields(request.headers, request.body) ?? {};
  const basic = /^Basic (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return [
    bearerTokenOf(request.headers),
    basic,
    fields.client_secret,
    fields.client_assertion,
    issuedTokenOf(response.body),
    ...[...(response.body ?? '').matchAll(TICKET_CODE)].map((m) => m[1]),
  ].filter((s): s is string => s !== undefined);
}
