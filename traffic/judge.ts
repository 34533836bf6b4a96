// Judges recordings: each file on its own (two files may be two targets), every exchange with one
// of the three operations or the token endpoint, in the order recorded. Nothing is sent: the
// judges read the recording and specs/, nothing else.
import { type OperationKey } from '../specs/index.ts';
import { recordingContext, type JudgeHints, type RecordingContext } from './context.ts';
import { credentialOf } from './credential.ts';
import { endpointOf } from './endpoints.ts';
import { globalClientJudgments, scopeJudgments } from './judges/authorization.ts';
import { errorJudgments, successJudgments } from './judges/answers.ts';
import { credentialJudgments, messageOf } from './judges/credentials.ts';
import { inputJudgments, pathProblems } from './judges/input.ts';
import { headerJudgments, sequenceJudgments } from './judges/rate-limit.ts';
import { jwksJudgments, tokenEndpointJudgments, type SecretsSeen } from './judges/token-endpoint.ts';
import type { Classified, Judgment } from './judgment.ts';
import type { Recorded } from './recording.ts';
import { operationRules } from './rules.ts';

export interface EndpointCounts {
  /** Exchanges read, and those of the three operations and the token endpoint (the judged ones). */
  exchanges: number;
  judged: number;
  /** Judged exchanges per endpoint: each operation's key, and token. */
  byEndpoint: Record<string, number>;
}

export interface TrafficJudgment extends EndpointCounts {
  judgments: Judgment[];
  /** The counts of each recording file, in the order given. */
  files: EndpointCounts[];
}

export function judgeRecordings(files: ReadonlyArray<readonly Recorded[]>, hints: JudgeHints = {}): TrafficJudgment {
  const judgments: Judgment[] = [];
  const counts: EndpointCounts[] = [];
  for (const recorded of files) {
    const classified = classify(recorded, hints);
    const mine: EndpointCounts = { exchanges: classified.length, judged: 0, byEndpoint: {} };
    for (const x of classified) {
      if (x.endpoint.kind === 'other' || x.endpoint.kind === 'jwks') continue;
      mine.judged += 1;
      const key = x.endpoint.kind === 'token' ? 'token' : x.endpoint.operation;
      mine.byEndpoint[key] = (mine.byEndpoint[key] ?? 0) + 1;
    }
    counts.push(mine);
    judgments.push(...judgeFile(classified));
  }
  const byEndpoint: Record<string, number> = {};
  for (const c of counts) for (const [key, n] of Object.entries(c.byEndpoint)) byEndpoint[key] = (byEndpoint[key] ?? 0) + n;
  const sum = (read: (c: EndpointCounts) => number) => counts.reduce((total, c) => total + read(c), 0);
  return { judgments, files: counts, exchanges: sum((c) => c.exchanges), judged: sum((c) => c.judged), byEndpoint };
}

function classify(recorded: readonly Recorded[], hints: JudgeHints): Array<Classified & { context: RecordingContext }> {
  const withEndpoints = recorded.map((r) => ({ ...r, endpoint: endpointOf(r.exchange.request.method, r.exchange.request.url) }));
  const parsed = withEndpoints.map((r) => ({ ...r, json: parseJson(r.exchange.response.body) }));
  const context = recordingContext(parsed, hints, messageOf);
  return parsed.map((r) => {
    const dated = Date.parse(r.exchange.response.headers.date ?? '');
    const at = Number.isNaN(dated) ? Date.parse(r.exchange.startedAt) + (r.exchange.durationMs ?? 0) : dated;
    const identities = context.identitiesOf(originOf(r.exchange.request.url));
    return {
      ...r,
      at,
      ...(Number.isNaN(dated) ? {} : { dateSeconds: Math.floor(dated / 1000) }),
      credential: credentialOf(r.exchange.request.headers, r.exchange.tokens, Math.floor(at / 1000), identities),
      status: r.exchange.response.status,
      context,
    };
  });
}

function judgeFile(classified: ReadonlyArray<Classified & { context: RecordingContext }>): Judgment[] {
  const judgments: Judgment[] = [];
  const previousByOrigin = new Map<string, Classified>();
  const secrets: SecretsSeen = new Map();
  for (const x of classified) {
    if (x.endpoint.kind === 'token') judgments.push(...tokenEndpointJudgments(x, x.context, secrets));
    if (x.endpoint.kind !== 'operation') continue;
    judgments.push(...operationJudgments(x, x.endpoint.operation, x.context));
    const origin = originOf(x.exchange.request.url);
    judgments.push(...headerJudgments(x), ...sequenceJudgments(x, previousByOrigin.get(origin)));
    previousByOrigin.set(origin, x);
  }
  judgments.push(...jwksJudgments(classified));
  return judgments;
}

function operationJudgments(x: Classified, op: OperationKey, context: RecordingContext): Judgment[] {
  const rules = operationRules[op];
  const path = pathProblems(x, rules);
  const inputRefusable = path.limits.length + path.shape.length > 0;
  return [
    ...credentialJudgments(x, rules, context, inputRefusable),
    ...scopeJudgments(x, rules, inputRefusable),
    ...globalClientJudgments(x, rules, context),
    ...inputJudgments(x, rules, context.hints.customDomainHeader),
    ...successJudgments(x, rules, context.hints.customDomainHeader),
    ...errorJudgments(x, rules),
  ];
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
