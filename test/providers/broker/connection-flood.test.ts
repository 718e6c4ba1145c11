/**
 * A flood of idle connections to the embedded broker cannot take the descriptors the rest of Sluice needs: with the
 * default broker.max.connections (half the open-file limit), `sluice start` under a small limit keeps answering
 * HTTP while thousands of connections knock at its broker.
 */
import { connect, type Socket } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { brokerPort, runSluice } from "../../helpers/sluice-process";
import { stopProcess } from "../streams/wordcount-processes";

const OPEN_FILES = 1024;
const FLOOD = 2 * OPEN_FILES;

/** Opens `count` connections, a few hundred at a time; resolves once each has connected or failed. */
async function flood(port: number, count: number, sockets: Socket[]): Promise<void> {
  for (let opened = 0; opened < count; ) {
    const batch = Math.min(200, count - opened);
    await Promise.all(
      Array.from({ length: batch }, () => new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => resolve());
        socket.on("error", () => resolve());
        sockets.push(socket);
      })),
    );
    opened += batch;
  }
}

test("the HTTP API keeps answering while connections flood the embedded broker", async () => {
  const sluice = runSluice(["start", "--server.port=0"], { openFiles: OPEN_FILES });
  const sockets: Socket[] = [];
  try {
    const url = await sluice.url(30_000);
    const port = await brokerPort(sluice);
    await flood(port, FLOOD, sockets);
    for (const path of ["/health/liveness", "/api/v1/streams"]) {
      const answer = await http(`${url}${path}`, { signal: AbortSignal.timeout(10_000) });
      assert.is(answer.status, 200, `${path} answered ${answer.status}`);
    }
    const open = () => sockets.filter((socket) => !socket.destroyed && socket.readyState === "open").length;
    await eventually(() => open() <= OPEN_FILES / 2, { what: "the connections past the broker's limit to be closed" });
    assert.ok(open() >= OPEN_FILES / 4, `the broker kept ${open()} connections`);
    assert.ok(sluice.logs().some((line) => line.msg === "refusing connections over the limit"), "the refusal is logged");
  } finally {
    for (const socket of sockets) socket.destroy();
    await stopProcess(sluice, "SIGTERM");
  }
});

test.run();
