// Authorization header values a server must refuse before it looks at any signature: no scheme
// or another scheme, "Bearer" with nothing, a token that is not three base64url segments, a token
// whose header is not JSON, an unsigned token, and client bugs ("Bearer undefined"). A scheme in
// other case only ever carries a broken token, since the scheme itself is case-insensitive.
// Every value is a valid header value: visible ASCII, inner spaces or tabs, nothing at either end.
import fc from 'fast-check';
import {
  garbageSegment,
  joinedWithDots,
  jwsHeaderSegment,
  jwsPayloadSegment,
  jwsShapedToken,
  signatureSegment,
  unsignedHeaderSegment,
} from './jws-segments.ts';

const OTHER_SCHEMES = ['Basic', 'Token', 'JWT', 'Digest', 'MAC', 'Bearer:'];
const SCHEME_IN_OTHER_CASE = ['bearer', 'BEARER', 'BeArEr'];
const CLIENT_BUGS = ['undefined', 'null', '<ACCESS_TOKEN>', '[object Object]', '""', '${token}'];

export function malformedAuthorization(): fc.Arbitrary<string> {
  return fc.oneof(
    tokenWithoutScheme(),
    tokenUnderOtherScheme(),
    basicCredentials(),
    fc.constantFrom('Bearer', ...SCHEME_IN_OTHER_CASE),
    garbageSegment().map(afterBearer),
    fc.tuple(jwsHeaderSegment(), jwsPayloadSegment()).map(joinedWithDots).map(afterBearer),
    fc.tuple(unsignedHeaderSegment(), jwsPayloadSegment(), fc.constant('')).map(joinedWithDots).map(afterBearer),
    fc.tuple(garbageSegment(), garbageSegment(), garbageSegment()).map(joinedWithDots).map(afterBearer),
    fc.array(garbageSegment(), { minLength: 4, maxLength: 5 }).map(joinedWithDots).map(afterBearer),
    paddedBase64Token().map(afterBearer),
    fc.tuple(fc.constantFrom(...SCHEME_IN_OTHER_CASE), brokenToken()).map(joinedWithSpace),
    fc.tuple(fc.constantFrom('Bearer  ', 'Bearer\t'), brokenToken()).map(joined),
    fc.tuple(brokenToken(), brokenToken()).map(twoCredentials),
    fc.constantFrom(...CLIENT_BUGS).map(afterBearer),
    jwsShapedToken().map(quoted).map(afterBearer),
  );
}

function tokenWithoutScheme(): fc.Arbitrary<string> {
  return jwsShapedToken();
}

function tokenUnderOtherScheme(): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...OTHER_SCHEMES), jwsShapedToken()).map(joinedWithSpace);
}

function basicCredentials(): fc.Arbitrary<string> {
  const userAndPassword = fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 }));
  return userAndPassword.map(function basicOf([user, password]) {
    return `Basic ${Buffer.from(`${user.replace(/:/g, '')}:${password}`).toString('base64')}`;
  });
}

/** A token that no reading makes well-formed: garbage, or segments of garbage. */
function brokenToken(): fc.Arbitrary<string> {
  return fc.oneof(garbageSegment(), fc.array(garbageSegment(), { minLength: 2, maxLength: 5 }).map(joinedWithDots));
}

/** Standard base64 with padding instead of base64url: a common client mistake. */
function paddedBase64Token(): fc.Arbitrary<string> {
  return fc.tuple(jwsHeaderSegment(), jwsPayloadSegment(), signatureSegment()).map(function padded([header, payload, signature]) {
    return `${header}==.${payload}.${signature}`;
  });
}

function afterBearer(token: string): string {
  return `Bearer ${token}`;
}

function joinedWithSpace(parts: readonly string[]): string {
  return parts.join(' ');
}

function joined(parts: readonly string[]): string {
  return parts.join('');
}

function twoCredentials([first, second]: [string, string]): string {
  return `Bearer ${first}, Bearer ${second}`;
}

function quoted(token: string): string {
  return `"${token}"`;
}
