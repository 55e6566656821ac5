import { Writable } from 'node:stream';

/** A stream to hand an app as its log (`logTo`), and what has been written to it so far. */
export function captureLog(): { stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}
