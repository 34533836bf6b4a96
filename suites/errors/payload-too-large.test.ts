// Observed: every error body is {statusCode, error, message[, errorCode]} with error the status's
// reason phrase as specs/observed.yaml gives it (reason_phrases), 413 among them ("Payload Too
// Large", RFC 7231's name; RFC 2616 called it "Request Entity Too Large", RFC 9110 "Content Too
// Large"). No other request of the suite is over a body size limit, so without this one a 413 is
// never met and its phrase never read. One ticket request whose body, a JSON string of a little
// over a mebibyte (past the embedded mock's limit and the usual framework defaults of 100 KiB and
// 1 MiB), could never create a ticket: a target that takes bodies this large answers 400 and the
// test says it met no 413. Only a 413 is read; the statuses' own rules are the other tests'.
import { conformance, errorBodyProblems, expectNoProblems, fixture } from '../../harness/index.ts';
import { observed } from '../../specs/index.ts';

const PAYLOAD_TOO_LARGE = 413;
/** The body's length in bytes: a mebibyte and a kibibyte. */
const OVERSIZED_BYTES = 1024 * 1024 + 1024;
const oversizedBody = () => `"${'x'.repeat(OVERSIZED_BYTES - 2)}"`;

conformance(
  `[§7 errors.body.shape] a ticket request whose body is over the size limit, answered 413, has the error body shape with error "${observed.reason_phrases[PAYLOAD_TOO_LARGE]!}"`,
  { operation: 'sso-ticket', needs: [fixture('selfServiceProfile')], requests: 1 },
  async ({ target }) => {
    const exchange = await target.call('sso-ticket', {
      params: { id: target.fixture('selfServiceProfile') },
      rawBody: oversizedBody(),
      contentType: 'application/json',
    });
    target.needs(
      exchange.status === PAYLOAD_TOO_LARGE,
      `the target answered ${exchange.status} to a body of ${OVERSIZED_BYTES} bytes: no 413 to read`,
      'not-applicable',
    );
    expectNoProblems(
      errorBodyProblems(exchange),
      `an error body {statusCode: ${PAYLOAD_TOO_LARGE}, error: "${observed.reason_phrases[PAYLOAD_TOO_LARGE]!}", message[, errorCode]}`,
      { exchange },
    );
  },
);
