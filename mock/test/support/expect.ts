// Assertions on the mock's error answers: the observed body shape and content type, and the
// catalogue entry's status, message and code.
import { expect } from 'vitest';
import { observed } from '../../../specs/index.ts';
import { apiErrorCatalogue, createErrorCatalogue, reasonPhrase, type ApiErrorKind } from '../../errors.ts';
import type { Answer } from './http.ts';

const catalogue = createErrorCatalogue();

/** The answer is the catalogue's error `kind` (with `detail`), in the observed error shape. */
export function expectError(answer: Answer, kind: ApiErrorKind, detail?: string): void {
  const entry = apiErrorCatalogue[kind] as { status: number; errorCode?: string };
  expect({ status: answer.status, contentType: answer.headers['content-type'] }).toEqual({
    status: entry.status,
    contentType: observed.content_type,
  });
  const body = answer.json as Record<string, unknown>;
  expect(body.statusCode).toBe(entry.status);
  expect(body.error).toBe(reasonPhrase(entry.status));
  if (detail === undefined) expect(typeof body.message).toBe('string');
  else expect(body.message).toBe(catalogue.message(kind, detail));
  expect(body.errorCode).toBe(entry.errorCode);
}

/** The message starts with the entry's prefix. */
export function expectErrorStarting(answer: Answer, kind: ApiErrorKind): string {
  expectError(answer, kind);
  const message = (answer.json as { message: string }).message;
  expect(message.startsWith((apiErrorCatalogue[kind] as { prefix?: string }).prefix ?? '')).toBe(true);
  return message;
}
