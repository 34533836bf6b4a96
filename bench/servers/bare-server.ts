// Benchmark child (b): the floor. A bare node:http server answering one fixed JSON body, with the
// same content type, on the route the bench reads; 404 elsewhere. No auth, no limiter, no checks.
import { createServer } from 'node:http';
import { serveUntilStopped } from './ipc.ts';

const path = process.env.BENCH_PATH ?? '/';
const body = Buffer.from(process.env.BENCH_BODY ?? '{}');
const contentType = process.env.BENCH_CONTENT_TYPE ?? 'application/json';

const server = createServer((req, res) => {
  const found = req.url === path;
  res.writeHead(found ? 200 : 404, { 'content-type': contentType, 'content-length': found ? body.length : 2 });
  res.end(found ? body : '{}');
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  serveUntilStopped(`http://127.0.0.1:${port}`, () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    return closed;
  });
});
