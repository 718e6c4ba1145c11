import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FrameSplitter, OversizeFrameError } from "../../../providers/kafka-protocol/frame-splitter";

const test = suite("FrameSplitter");

function framed(...bodies: Buffer[]): Buffer {
  return Buffer.concat(
    bodies.flatMap((body) => {
      const size = Buffer.alloc(4);
      size.writeInt32BE(body.length);
      return [size, body];
    }),
  );
}

const bodies = [Buffer.from("first"), Buffer.alloc(0), Buffer.alloc(3000, 1), Buffer.from("last")];

test("cuts a stream into its frames however it is chunked, even a byte at a time", () => {
  const stream = framed(...bodies);
  for (const chunkSize of [1, 2, 3, 5, 64, 1000, stream.length]) {
    const splitter = new FrameSplitter(1 << 20);
    const frames: Buffer[] = [];
    for (let at = 0; at < stream.length; at += chunkSize) {
      for (const frame of splitter.push(stream.subarray(at, at + chunkSize))) frames.push(frame.toBuffer());
    }
    assert.equal(frames, bodies, `chunks of ${chunkSize}`);
  }
});

test("hands on a frame as views of the chunks it arrived in, without copying", () => {
  const stream = framed(Buffer.alloc(3000, 2));
  const chunks = [stream.subarray(0, 1000), stream.subarray(1000, 2000), stream.subarray(2000)];
  const splitter = new FrameSplitter(1 << 20);
  assert.equal(splitter.push(chunks[0]), []);
  assert.equal(splitter.push(chunks[1]), []);
  const [frame] = splitter.push(chunks[2]);
  assert.is(frame.chunks.length, 3);
  assert.ok(frame.chunks.every((chunk) => chunk.buffer === stream.buffer));
  assert.is(frame.length, 3000);
});

test("rejects a frame larger than the limit, and a negative size", () => {
  assert.throws(() => new FrameSplitter(100).push(framed(Buffer.alloc(101))), (error: unknown) => error instanceof OversizeFrameError);
  assert.throws(() => new FrameSplitter(100).push(Buffer.from([0xff, 0xff, 0xff, 0xff])), (error: unknown) => error instanceof OversizeFrameError);
});

test.run();
