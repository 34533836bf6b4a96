// Exits once what was written to stdout and stderr has been handed over: process.exit() right
// after a burst of writes to a pipe (a CI log, `| tee`) would cut the end of the output off.
export function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
