/**
 * A broker with file storage in a process of its own, for tests that kill it.
 * Arguments: the data directory, and the port (default 0: an ephemeral one; a restarted broker takes its old port
 * again, so that its clients find it). Prints {"port": n} once it listens; runs until killed.
 */
import { startBroker } from "../../../providers/broker";

startBroker({ port: Number(process.argv[3] ?? 0), storage: "file", dataDir: process.argv[2], initialRebalanceDelayMs: 0, transactionTimeoutCheckIntervalMs: 100 }).then(
  (broker) => process.stdout.write(`${JSON.stringify({ port: broker.port })}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
