/**
 * A broker with file storage in a process of its own, for tests that kill it.
 * Argument: the data directory. Prints {"port": n} once it listens; runs until killed.
 */
import { startBroker } from "../../../providers/broker";

startBroker({ port: 0, storage: "file", dataDir: process.argv[2], initialRebalanceDelayMs: 0 }).then(
  (broker) => process.stdout.write(`${JSON.stringify({ port: broker.port })}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
