// Keeps secrets out of everything the suite prints or writes. Known secrets (client secrets,
// issued tokens) are replaced wherever they appear; anything shaped like a JWT, a credential
// parameter or an SSO ticket is replaced too, as a net for values the redactor was never told about.
export const REDACTED = '[redacted]';
/** What a credential written as another JSON type than a string (true, 12345) is redacted to: a string that says so. */
export const REDACTED_NOT_A_STRING = `${REDACTED} (not a string)`;

const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
// Only a whole name: "as-username-and-password" is a name of its own (a matrix row's key), not a password.
const CREDENTIAL_PARAMETER = /(?<![\w-])(client_secret|access_token|refresh_token|password)(["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi;
// A self-service SSO ticket URL is a live credential (it opens the flow, several times over):
// its ticket parameter is a secret wherever it appears.
const TICKET_PARAMETER = /([?&]ticket=)(?!\[redacted\])[^&\s"'<>\\]+/gi;
// "$TOKEN" is how a replay line leaves the token to the shell: not a secret.
const AUTHORIZATION_VALUE = /\b(authorization["']?\s*[:=]\s*["']?\s*(?:bearer|basic)\s+)(?!\$TOKEN\b)[^"'\s,}]+/gi;

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Registers a value that must never be shown. Short values are refused: they would maim text. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 8) this.#secrets.add(secret);
  }

  /** Forgets every secret: a run starts with none of another run's (cli/conformance-command.ts). */
  clear(): void {
    this.#secrets.clear();
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      out = out.split(secret).join(REDACTED);
    }
    return (
      out
        .replace(JWT_SHAPE, REDACTED)
        // An unquoted JSON value ("password": 12345) is replaced by a string, so that JSON stays JSON,
        // one that says it was no string (a recording's judge must not take it for one).
        .replace(CREDENTIAL_PARAMETER, (_, name: string, between: string) =>
          between.includes(':') && !/["']$/.test(between) && /^["']/.test(between)
            ? `${name}${between}"${REDACTED_NOT_A_STRING}"`
            : `${name}${between}${REDACTED}`,
        )
        .replace(TICKET_PARAMETER, `$1${REDACTED}`)
        .replace(AUTHORIZATION_VALUE, `$1${REDACTED}`)
    );
  }
}

/** The redactor of this process: every printed or reported string passes through it. */
export const redactor = new Redactor();
