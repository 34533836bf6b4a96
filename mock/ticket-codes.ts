// Ticket codes: observed.ticket.code_length characters of the alphanumeric alphabet, from a
// cryptographic source (a ticket opens a configuration flow, so it must not be guessable).
import { randomInt } from 'node:crypto';
import { observed } from '../specs/index.ts';

export type TicketCodeGenerator = () => string;

export function createTicketCodeGenerator(): TicketCodeGenerator {
  const alphabet = observed.identifiers.alphanumeric_alphabet;
  const length = observed.ticket.code_length;
  return function ticketCode() {
    let code = '';
    for (let i = 0; i < length; i += 1) code += alphabet[randomInt(alphabet.length)];
    return code;
  };
}
