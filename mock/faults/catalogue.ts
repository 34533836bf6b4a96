// Every deliberate fault the mock knows, by id. Adding a fault: write one file exporting a Fault
// (see fault.ts and README.md) and list it here. Each breaks one clause of specs/clauses.yaml.
import { accepted202ForMissingEvent } from './202-for-missing-event.ts';
import { accepted202ForMissingStream } from './202-for-missing-stream.ts';
import { accepted202ForNonRedeliverableEvent } from './202-for-non-redeliverable-event.ts';
import { unauthorizedInsteadOfForbidden } from './401-instead-of-403.ts';
import { unauthorizedMessagesAllInvalidToken } from './401-messages-all-invalid-token.ts';
import { forbiddenForNonGlobal } from './403-for-non-global.ts';
import { forbiddenWithoutScopeName } from './403-without-scope-name.ts';
import { tooManyRequestsBodyWithoutErrorCode } from './429-body-without-error-code.ts';
import { tooManyRequestsResetAsHttpDate } from './429-reset-as-http-date.ts';
import { tooManyRequestsWithoutXRateLimitLimit } from './429-without-x-ratelimit-limit.ts';
import { tooManyRequestsWithoutXRateLimitRemaining } from './429-without-x-ratelimit-remaining.ts';
import { tooManyRequestsWithoutXRateLimitReset } from './429-without-x-ratelimit-reset.ts';
import { accepts2CharCustomDomain } from './accepts-2-char-custom-domain.ts';
import { accepts25CharEventId } from './accepts-25-char-event-id.ts';
import { accepts25CharStreamId } from './accepts-25-char-stream-id.ts';
import { accepts256CharCustomDomain } from './accepts-256-char-custom-domain.ts';
import { accepts27CharEventId } from './accepts-27-char-event-id.ts';
import { accepts27CharStreamId } from './accepts-27-char-stream-id.ts';
import { accepts31CharVaultId } from './accepts-31-char-vault-id.ts';
import { acceptsAlgNone } from './accepts-alg-none.ts';
import { acceptsExpiredToken } from './accepts-expired-token.ts';
import { acceptsFractionalTtlSec } from './accepts-fractional-ttl-sec.ts';
import { acceptsHs256WithPublicKey } from './accepts-hs256-with-public-key.ts';
import { acceptsNegativeTtlSec } from './accepts-negative-ttl-sec.ts';
import { acceptsNonGlobalClient } from './accepts-non-global-client.ts';
import { acceptsNotYetValidToken } from './accepts-not-yet-valid-token.ts';
import { acceptsTtlSecOneOverMaximum } from './accepts-ttl-sec-one-over-maximum.ts';
import { acceptsUnknownKid } from './accepts-unknown-kid.ts';
import { acceptsWrongAudience } from './accepts-wrong-audience.ts';
import { acceptsWrongIssuer } from './accepts-wrong-issuer.ts';
import { bodyErrorsAs422 } from './body-errors-as-422.ts';
import { errorBodyWithoutStatusCode } from './error-body-without-status-code.ts';
import { errorBodyWrongReasonPhrase } from './error-body-wrong-reason-phrase.ts';
import { errorContentTypeWithoutCharset } from './error-content-type-without-charset.ts';
import { ignoresScope } from './ignores-scope.ts';
import { ignoresSignature } from './ignores-signature.ts';
import { jwksPublishesStaleKid } from './jwks-publishes-stale-kid.ts';
import { limitHeaderCountsDown } from './limit-header-counts-down.ts';
import { missingEventToldStreamMissing } from './missing-event-told-stream-missing.ts';
import { neverLimits } from './never-limits.ts';
import { noRateLimitHeadersOnSuccess } from './no-rate-limit-headers-on-success.ts';
import { pathErrorsWithoutErrorCode } from './path-errors-without-error-code.ts';
import { redeliver200InsteadOf202 } from './redeliver-200-instead-of-202.ts';
import { redeliver202WithoutBody } from './redeliver-202-without-body.ts';
import { redeliver204InsteadOf202 } from './redeliver-204-instead-of-202.ts';
import { refuses255CharCustomDomain } from './refuses-255-char-custom-domain.ts';
import { refuses30CharVaultId } from './refuses-30-char-vault-id.ts';
import { refusesTtlSecAtMaximum } from './refuses-ttl-sec-at-maximum.ts';
import { refusesTtlSecZero } from './refuses-ttl-sec-zero.ts';
import { remainingGoesNegative } from './remaining-goes-negative.ts';
import { remainingNeverFalls } from './remaining-never-falls.ts';
import { resetInMilliseconds } from './reset-in-milliseconds.ts';
import { ticket200InsteadOf201 } from './ticket-200-instead-of-201.ts';
import { ticket403ForInvalidToken } from './ticket-403-for-invalid-token.ts';
import { ticketAcceptsAnyAuthScheme } from './ticket-accepts-any-auth-scheme.ts';
import { ticketAcceptsUnknownNestedProperties } from './ticket-accepts-unknown-nested-properties.ts';
import { ticketCodeInsteadOfUrl } from './ticket-code-instead-of-url.ts';
import { ticketContentTypeTextHtml } from './ticket-content-type-text-html.ts';
import { ticketIgnoresCustomDomain } from './ticket-ignores-custom-domain.ts';
import { ticketIgnoresFieldTypeFaults } from './ticket-ignores-field-type.ts';
import { ticketIgnoresScope } from './ticket-ignores-scope.ts';
import { ticketIgnoresTakenConnectionName } from './ticket-ignores-taken-connection-name.ts';
import { ticketRefusesEmptyBody } from './ticket-refuses-empty-body.ts';
import { ticketRequiresEnabledFeaturesWithConnectionId } from './ticket-requires-enabled-features-with-connection-id.ts';
import { ticketUrlOverHttp } from './ticket-url-over-http.ts';
import { tokenCarriesScopeOutsideCatalogue } from './token-carries-scope-outside-catalogue.ts';
import { tokenEndpointRefusesJson } from './token-endpoint-refuses-json.ts';
import { tokenEndpointWithoutTrailingSlash } from './token-endpoint-without-trailing-slash.ts';
import { tokenErrorsInApiShape } from './token-errors-in-api-shape.ts';
import { tokenLifetime3600 } from './token-lifetime-3600.ts';
import { tokenScopeClaimDropsFirstScope } from './token-scope-claim-drops-first-scope.ts';
import { tokenTypeLowercaseBearer } from './token-type-lowercase-bearer.ts';
import { tokenWithoutKid } from './token-without-kid.ts';
import { validatesPathBeforeAuthenticating } from './validates-path-before-authenticating.ts';
import { vault203FromCache } from './vault-203-from-cache.ts';
import { vault404GenericMessage } from './vault-404-generic-message.ts';
import { vaultAcceptsAnyBearerToken } from './vault-accepts-any-bearer-token.ts';
import { vaultAnswersFirstRecordRead } from './vault-answers-first-record-read.ts';
import { vaultContentTypeTextPlain } from './vault-content-type-text-plain.ts';
import { vaultIgnoresScope } from './vault-ignores-scope.ts';
import { vaultNotUnderBasePath } from './vault-not-under-base-path.ts';
import { vaultRecordAccountNameEmptyWhenUnset } from './vault-record-account-name-empty-when-unset.ts';
import { vaultRecordAppIdOverMaximum } from './vault-record-app-id-over-maximum.ts';
import { vaultRecordCreatedAtNotIso } from './vault-record-created-at-not-iso.ts';
import { vaultRecordEnvironmentNullWhenUnset } from './vault-record-environment-null-when-unset.ts';
import { vaultRecordFingerprintEmptyWhenNotReady } from './vault-record-fingerprint-empty-when-not-ready.ts';
import { vaultRecordIdPadded } from './vault-record-id-padded.ts';
import { vaultRecordReadyAsString } from './vault-record-ready-as-string.ts';
import { vaultRecordRefreshedAtAsEpochMs } from './vault-record-refreshed-at-as-epoch-ms.ts';
import { vaultRecordUpdatedAtWithoutZone } from './vault-record-updated-at-without-zone.ts';
import { vaultRecordWithExtraField } from './vault-record-with-extra-field.ts';
import { vaultRecordWithoutName } from './vault-record-without-name.ts';
import { vaultRefusesClientCredentialsTokens } from './vault-refuses-client-credentials-tokens.ts';
import type { Fault } from './fault.ts';

export const faultCatalogue: readonly Fault[] = [
  // Redelivery (spec 4.1, 7, 8)
  redeliver200InsteadOf202,
  redeliver204InsteadOf202,
  accepts25CharStreamId,
  accepts27CharStreamId,
  accepts25CharEventId,
  accepts27CharEventId,
  accepted202ForMissingStream,
  accepted202ForMissingEvent,
  accepted202ForNonRedeliverableEvent,
  neverLimits,
  redeliver202WithoutBody,
  missingEventToldStreamMissing,
  // Tokens and their checks (spec 5, 7)
  acceptsAlgNone,
  acceptsExpiredToken,
  acceptsNotYetValidToken,
  acceptsWrongAudience,
  acceptsWrongIssuer,
  ignoresSignature,
  acceptsHs256WithPublicKey,
  acceptsUnknownKid,
  vaultAcceptsAnyBearerToken,
  ticketAcceptsAnyAuthScheme,
  vaultRefusesClientCredentialsTokens,
  tokenEndpointWithoutTrailingSlash,
  tokenScopeClaimDropsFirstScope,
  tokenCarriesScopeOutsideCatalogue,
  tokenLifetime3600,
  tokenTypeLowercaseBearer,
  tokenWithoutKid,
  jwksPublishesStaleKid,
  tokenEndpointRefusesJson,
  tokenErrorsInApiShape,
  // Scopes and clients (spec 5, 7)
  ignoresScope,
  unauthorizedInsteadOfForbidden,
  acceptsNonGlobalClient,
  forbiddenForNonGlobal,
  ticketIgnoresScope,
  vaultIgnoresScope,
  validatesPathBeforeAuthenticating,
  // Rate limit (spec 7, 8)
  tooManyRequestsWithoutXRateLimitLimit,
  tooManyRequestsWithoutXRateLimitRemaining,
  tooManyRequestsWithoutXRateLimitReset,
  tooManyRequestsResetAsHttpDate,
  resetInMilliseconds,
  remainingGoesNegative,
  remainingNeverFalls,
  limitHeaderCountsDown,
  noRateLimitHeadersOnSuccess,
  // Error bodies (observed)
  errorBodyWithoutStatusCode,
  errorBodyWrongReasonPhrase,
  errorContentTypeWithoutCharset,
  unauthorizedMessagesAllInvalidToken,
  forbiddenWithoutScopeName,
  pathErrorsWithoutErrorCode,
  bodyErrorsAs422,
  vault404GenericMessage,
  tooManyRequestsBodyWithoutErrorCode,
  ticket403ForInvalidToken,
  // SSO ticket (spec 2.2, 4.2, 8)
  ticketCodeInsteadOfUrl,
  ticketContentTypeTextHtml,
  ticketRefusesEmptyBody,
  ticketRequiresEnabledFeaturesWithConnectionId,
  acceptsFractionalTtlSec,
  acceptsTtlSecOneOverMaximum,
  acceptsNegativeTtlSec,
  refusesTtlSecAtMaximum,
  refusesTtlSecZero,
  accepts2CharCustomDomain,
  accepts256CharCustomDomain,
  refuses255CharCustomDomain,
  ticket200InsteadOf201,
  ticketUrlOverHttp,
  ticketIgnoresCustomDomain,
  ticketAcceptsUnknownNestedProperties,
  ticketIgnoresTakenConnectionName,
  // One per typed field of the ticket request: sso-ticket.body.<field>.type
  ...ticketIgnoresFieldTypeFaults,
  // Flows vault connection (spec 2.1, 4.3, 9)
  vaultNotUnderBasePath,
  vaultRecordIdPadded,
  vaultRecordAppIdOverMaximum,
  vaultRecordWithoutName,
  vaultRecordReadyAsString,
  vaultRecordCreatedAtNotIso,
  vaultRecordUpdatedAtWithoutZone,
  vaultRecordFingerprintEmptyWhenNotReady,
  vaultRecordEnvironmentNullWhenUnset,
  vaultRecordAccountNameEmptyWhenUnset,
  vaultRecordRefreshedAtAsEpochMs,
  vaultAnswersFirstRecordRead,
  vaultContentTypeTextPlain,
  accepts31CharVaultId,
  refuses30CharVaultId,
  vaultRecordWithExtraField,
  vault203FromCache,
];

export const faultIds: readonly string[] = faultCatalogue.map((fault) => fault.id);
