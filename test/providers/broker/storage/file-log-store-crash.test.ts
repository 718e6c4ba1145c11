/** The file store's promise: what was acknowledged before a kill -9 is there after reopening. */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { FileLogStore } from "../../../../providers/broker/storage/file-log-store";
import { readBatchHeader, splitBatches } from "../../../../providers/kafka-protocol/records/record-batch";
import { eventually } from "../../../helpers/eventually";
import { storeConfig, tempDataDir } from "./log-store-fixture";

const test = suite("file log store after kill -9");

test("every acknowledged append and commit survives a kill -9 mid-write", async () => {
  const dataDir = tempDataDir();
  const child = spawn(process.execPath, [path.join(__dirname, "append-until-killed.js"), dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await eventually(() => output.split("\n").length > 500, { what: "500 acknowledged appends" });
    child.kill("SIGKILL");
    await exited;
    const acked = output
      .split("\n")
      .filter((line) => line.startsWith("ack "))
      .map((line) => BigInt(line.slice(4)));
    const lastAcked = acked[acked.length - 1];

    const store = new FileLogStore(storeConfig(dataDir));
    await store.open();
    try {
      const log = store.partition("t", 0)!;
      assert.ok(log.logEndOffset() >= lastAcked + 3n, `end ${log.logEndOffset()} after ack of ${lastAcked}`);
      let offset = 0n;
      let batches = 0;
      while (offset < log.logEndOffset()) {
        for (const batch of splitBatches(await log.read(offset, 1 << 20))) {
          const header = readBatchHeader(batch.toBuffer());
          assert.is(header.baseOffset, offset);
          offset += BigInt(header.recordCount);
          batches++;
        }
      }
      assert.ok(batches >= acked.length);
      assert.ok(store.offsets.fetch("g", "t", 0)!.offset >= lastAcked);
    } finally {
      await store.close();
    }
  } finally {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
