import { suite } from "uvu";
import * as assert from "uvu/assert";
import { SerialWriteQueue } from "../../../../providers/broker/storage/serial-write-queue";

const test = suite("serial write queue");

test("items pushed while a write is in flight are written together, in order, one write at a time", async () => {
  const writes: number[][] = [];
  let inFlight = 0;
  const queue = new SerialWriteQueue<number, number>(async (items) => {
    assert.is(inFlight++, 0, "writes never overlap");
    writes.push(items);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return items.map((item) => ({ ok: true, value: item * 10 }));
  });
  const first = queue.push(1);
  await Promise.resolve();
  const rest = Array.from({ length: 50 }, (_, i) => queue.push(i + 2));
  assert.equal(await Promise.all([first, ...rest]), Array.from({ length: 51 }, (_, i) => (i + 1) * 10));
  assert.ok(writes.length <= 2, `${writes.length} writes for 51 items`);
  assert.equal(writes.flat(), Array.from({ length: 51 }, (_, i) => i + 1));
});

test("a failed write rejects its items only; later pushes are written normally", async () => {
  let calls = 0;
  const queue = new SerialWriteQueue<string, string>(async (items) => {
    if (calls++ === 0) throw new Error("disk full");
    return items.map((item) => ({ ok: true, value: item }));
  });
  const failed = queue.push("a");
  try {
    await failed;
    assert.unreachable("the first write fails");
  } catch (error) {
    assert.match(String(error), "disk full");
  }
  assert.is(await queue.push("b"), "b");
});

test("exclusive work runs after the writes already scheduled", async () => {
  const order: string[] = [];
  const queue = new SerialWriteQueue<string, void>(async (items) => {
    order.push(...items);
    return items.map(() => ({ ok: true, value: undefined }));
  });
  const write = queue.push("write");
  await queue.exclusive(async () => void order.push("exclusive"));
  await write;
  assert.equal(order, ["write", "exclusive"]);
});

test.run();
