// A problem with how the mock was asked to start (an option, the fixtures file, the signing key
// file, a fault id). The CLI prints its message as one line and exits 2; nothing else is wrong.

export class MockConfigError extends Error {
  override readonly name = 'MockConfigError';
}
