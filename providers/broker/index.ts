/** The embedded Kafka-protocol broker: start it in this thread or in its own worker thread. */
import { Broker, type BrokerOptions, type RunningBroker } from "./broker";

export type { BrokerOptions, RunningBroker } from "./broker";
export { startBrokerInWorker } from "./broker-worker";

export function startBroker(options: BrokerOptions = {}): Promise<RunningBroker> {
  return Broker.start(options);
}
