// A conditional read is still a read (spec 5: the scope rule holds for every request): a token
// without the operation's scope, sent with If-None-Match naming the entity tag of the valid
// request's answer (or "*" where that answer has none) and If-Modified-Since at the answer's
// Last-Modified (or its Date), is refused as without them. A conditional-request layer (ETag,
// 304 Not Modified) mounted before the permission check answers 304 instead, telling a caller
// without the scope that the record has not changed. Operations read with GET only: a conditional
// header on a write asks something else (RFC 9110 13.1). The valid request is the positive
// control, and shared: one request per operation on a tenant.
import { conformance, role, type RoleName } from '../../harness/index.ts';
import { checkOutcome } from '../../harness/suite/matrix.ts';
import { successOf } from '../../harness/suite/requests.ts';
import type { OperationCard } from '../../specs/cards/card.ts';
import { cards } from '../../specs/cards/index.ts';
import { clause } from '../../specs/index.ts';
import { forbidden } from '../../specs/matrix/checks.ts';
import { validTemplate } from '../../specs/matrix/template.ts';

const reads: OperationCard[] = Object.values(cards).filter((card) => card.spec.method === 'GET');
for (const card of reads) {
  const rule = forbidden(card)[0]!;
  const valid = successOf(card.key);
  conformance(
    `[§${clause(rule.clause).section} ${rule.clause}] ${card.name} refuses a token without its scope sent as a conditional request (If-None-Match naming the entity tag of the valid answer, If-Modified-Since at its date)`,
    { ...valid.plan, needs: [...(valid.plan.needs as []), role(card.roleWithoutScope as RoleName)], requests: 1 },
    async ({ target }) => {
      const answer = await valid.send(target);
      await target.control('the valid request', () => Promise.resolve(answer));
      const headers = {
        'if-none-match': [answer.headers.etag ?? '*'],
        'if-modified-since': [answer.headers['last-modified'] ?? answer.headers.date ?? new Date().toUTCString()],
      };
      const template = validTemplate(card, target.context);
      const exchange = await target.sendTemplate(
        {
          ...template,
          headers: { ...template.headers, ...headers },
          credential: { kind: 'role', role: card.roleWithoutScope },
        },
        { label: card.key },
      );
      checkOutcome(exchange, rule.outcome);
    },
  );
}
