// The closed catalogue of variation operators. Each changes one element of a valid request in one
// way; which operators apply to which kind of element, and the variations each makes there, are
// the families' (families/*.ts), and the expected outcome of each is derived from the spec or the
// observed reference (expectations.ts). An operator that applies to an element but has no defined
// expectation there is a row of the matrix all the same, marked as such.
export const operators = {
  absent: 'the element left out',
  null: 'JSON null in its place',
  empty: 'an empty value (empty string, array or object, or a header with no value)',
  'other-type': 'a value of each other JSON type',
  bounds: 'the exact value at each bound the spec or the reference states, and one step beyond it on each side',
  case: "its letters in the other case, or its name's (in capitals, in camelCase)",
  whitespace: 'a space or a tab before or after it',
  encoding: 'the same value encoded another way (one character escaped once more, another media type)',
  truncate: 'its last character removed',
  'extra-part': 'one part more (a character, a segment, a property, an item, "[]" after its name)',
  duplicate: 'the element twice',
  'other-owner': 'a value that belongs to another client, resource or tenant',
  'near-value':
    'the closest wrong value of its kind (a URL off by a slash or a host prefix, a time off by minutes, a scope that contains or extends the right one, a header\'s name with "_" for "-")',
  method: 'each other HTTP method',
  placement: 'the credential carried somewhere other than the Authorization header',
  forgery: 'a forgery that needs no key: a tampered or stripped signature, a foreign key, alg none, an HMAC keyed with the public key',
} as const;

export type OperatorId = keyof typeof operators;

export const operatorIds = Object.keys(operators) as OperatorId[];
