// The negative space of the contract: the request model of each operation and of the token
// endpoint, the catalogue of variation operators, and the matrix of their rows with expectations.
export * from './elements.ts';
export * from './operators.ts';
export * from './row.ts';
export * from './template.ts';
export * from './checks.ts';
export { matrix, matrixOf, baseTemplate } from './matrix.ts';
export {
  TOKEN_TWINS,
  tokenRequestRows,
  type TokenMatrixRow,
  type TokenTwin,
  type TokenVariant,
  type TokenElement,
} from './families/token-request.ts';
export { NEAR_MISS_SECONDS } from './families/credential.ts';
export { otherActionOf } from '../cards/index.ts';
export { swapCase, otherCase, hostNameOfLength, idOfLength, hostCaseSpellings, withCharacterEscapedAt } from './values.ts';
export { matrixSuiteOf, matrixSuiteFile, matrixTestsOf, type MatrixSuite } from './suites.ts';
