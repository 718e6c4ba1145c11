/**
 * What unauthenticated clients cost a secured broker's memory: a `sluice broker` process (SASL_PLAINTEXT) and N
 * connections that never authenticate, each announcing a frame just under max.request.bytes and sending most of it.
 * Prints the broker's resident memory before and at its peak, and how many of the connections the broker closed
 * before their frames were in (with the pre-authentication frame limit, all of them at once).
 * Prints, never asserts.
 * Usage: node dist/bench/broker/unauthenticated-memory.js [connections=5] [mebibytes per connection=85]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";

const CONNECTIONS = Number(process.argv[2] ?? 5);
const MIB_PER_CONNECTION = Number(process.argv[3] ?? 85);
const ANNOUNCED = 100 * 1024 * 1024 - 1;
const CHUNK = Buffer.alloc(1024 * 1024);
const SLUICE = path.resolve(__dirname, "..", "..", "..", "bin", "sluice.js");

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startBroker(): Promise<{ pid: number; port: number; stop: () => void }> {
  const child = spawn(process.execPath, [SLUICE, "broker", "--broker.port=0", "--broker.storage=memory", "--broker.security.protocol=SASL_PLAINTEXT", "--broker.sasl.mechanisms=PLAIN", "--broker.sasl.users=user:secret"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let log = "";
    child.stderr!.on("data", (chunk) => {
      log += chunk;
      const port = /"msg":"broker listening".*?"port":(\d+)/.exec(log)?.[1];
      if (port) resolve({ pid: child.pid!, port: Number(port), stop: () => child.kill("SIGTERM") });
    });
    child.once("exit", (code) => reject(new Error(`the broker exited with ${code}: ${log}`)));
  });
}

/** Announces a frame and writes up to `mebibytes` of it as the socket takes it; resolves when done or closed. */
function unauthenticated(port: number, mebibytes: number): Promise<{ socket: Socket; closedEarly: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let sent = 0;
    let closed = false;
    socket.on("error", () => undefined);
    socket.once("close", () => {
      closed = true;
      resolve({ socket, closedEarly: sent < mebibytes });
    });
    const header = Buffer.alloc(4);
    header.writeInt32BE(ANNOUNCED);
    const pump = () => {
      while (!closed && sent < mebibytes) {
        sent++;
        if (!socket.write(CHUNK)) return void socket.once("drain", pump);
      }
      if (!closed) resolve({ socket, closedEarly: false });
    };
    socket.once("connect", () => {
      socket.write(header);
      pump();
    });
  });
}

async function main(): Promise<void> {
  const broker = await startBroker();
  try {
    await settle(1_000);
    const before = rssMiB(broker.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(broker.pid))), 50);
    const outcomes = await Promise.all(Array.from({ length: CONNECTIONS }, () => unauthenticated(broker.port, MIB_PER_CONNECTION)));
    await settle(1_000);
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(broker.pid));
    const closedEarly = outcomes.filter(({ closedEarly }) => closedEarly).length;
    console.log(`${CONNECTIONS} unauthenticated connections, each announcing ${ANNOUNCED} bytes and sending up to ${MIB_PER_CONNECTION} MiB`);
    console.log(`broker RSS: ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at the peak (+${(peak - before).toFixed(0)} MiB)`);
    console.log(`connections closed by the broker before their frame was in: ${closedEarly} of ${CONNECTIONS}`);
    for (const { socket } of outcomes) socket.destroy();
  } finally {
    broker.stop();
  }
}

void main();
