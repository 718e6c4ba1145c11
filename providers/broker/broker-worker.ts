/**
 * Runs a Broker in its own worker thread, so that it does not share an event loop with the topologies.
 * This module is also the worker's entry: in a worker started by startBrokerInWorker it starts the broker.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { Broker, type BrokerOptions, type RunningBroker } from "./broker";
import { withPlainErrors, type ComponentLogger, type LineLevel as LogLevel, type LogFields } from "../../kernel/logger";

/** Messages from the worker to the thread that started it. */
type WorkerMessage =
  | { kind: "ready"; host: string; port: number }
  | { kind: "failed"; message: string }
  | { kind: "log"; level: LogLevel; msg: string; fields?: LogFields };

const WORKER_MARKER = "sluice-broker-worker";

interface WorkerData {
  marker: typeof WORKER_MARKER;
  options: Omit<BrokerOptions, "logger">;
}

/** Starts a broker in a worker thread; its log lines come back to `options.logger` in this thread. */
export function startBrokerInWorker(options: BrokerOptions = {}): Promise<RunningBroker> {
  const { logger, ...cloneable } = options;
  const data: WorkerData = { marker: WORKER_MARKER, options: cloneable };
  const worker = new Worker(__filename, { workerData: data });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    worker.on("error", (error) => {
      logger?.error("the broker worker failed", { error });
      reject(error);
    });
    worker.on("exit", (code) => reject(new Error(`the broker worker exited with code ${code} before it was ready`)));
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "log") logger?.[message.level](message.msg, message.fields);
      else if (message.kind === "failed") reject(new Error(`the broker worker failed to start: ${message.message}`));
      else if (message.kind === "ready") {
        resolve({
          host: message.host,
          port: message.port,
          close: async () => {
            worker.postMessage("close");
            await exited;
          },
        });
      }
    });
  });
}

function runInWorker(options: WorkerData["options"]): void {
  const port = parentPort!;
  const post = (message: WorkerMessage) => port.postMessage(message);
  const forward = (level: LogLevel) => (msg: string, fields?: LogFields) => post({ kind: "log", level, msg, fields: withPlainErrors(fields) });
  const logger: ComponentLogger = { debug: forward("debug"), info: forward("info"), warn: forward("warn"), error: forward("error") };
  Broker.start({ ...options, logger }).then(
    (broker) => {
      post({ kind: "ready", host: broker.host, port: broker.port });
      port.once("message", () => {
        void broker.close().finally(() => port.close());
      });
    },
    (error: unknown) => {
      post({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
      port.close();
    },
  );
}

if (!isMainThread && (workerData as WorkerData | null)?.marker === WORKER_MARKER) runInWorker((workerData as WorkerData).options);
