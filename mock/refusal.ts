// How a stage stops a request: it throws a Refusal carrying the reply to send. Routes then read as
// a straight line of steps; app.ts turns a Refusal back into that reply.
import type { ErrorCatalogue, ApiErrorKind, TokenErrorKind } from './errors.ts';
import type { Reply } from './exchange.ts';

export class Refusal extends Error {
  readonly reply: Reply;

  constructor(reply: Reply) {
    super(`refused with ${reply.status}`);
    this.reply = reply;
  }
}

/**
 * Stops the request with the catalogue's reply of `kind`. It asks the catalogue component each
 * time, so a fault that overrides `errors.reply` changes every refusal.
 */
export function refuse(deps: { errors: ErrorCatalogue }, kind: ApiErrorKind, detail?: string): never {
  throw new Refusal(deps.errors.reply(kind, detail));
}

/** Stops a token request with the token endpoint's own error shape. */
export function refuseToken(deps: { errors: ErrorCatalogue }, kind: TokenErrorKind, description: string, status?: number): never {
  throw new Refusal(deps.errors.tokenReply(kind, description, status));
}
