/**
 * The bench application `sse-bench`: every record of topic `sse-bench-input` (value: a sequence number) becomes
 * one event of stream `ticks` carrying the sequence number and the epoch time (sub-millisecond) of the send.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { TOPOLOGY_PROVIDER_CONTRACT, type EventStreamDeclaration, type TopologyProvider } from "../../kernel/contracts/streams/topology-provider";

export const INPUT_TOPIC = "sse-bench-input";
export const APPLICATION_ID = "sse-bench";
export const EVENT_TYPE = "ticks";

export interface Tick {
  seq: number;
  /** performance.timeOrigin + performance.now() when the topology sent it. */
  sentAt: number;
}

export class TicksProvider implements TopologyProvider {
  readonly name = "SseBench";
  readonly version = "1.0.0";
  readonly config = { "application.id": APPLICATION_ID };
  readonly eventStreams: EventStreamDeclaration[] = [{ type: EVENT_TYPE, queueSize: 100_000, limitHandler: "drop_head" }];

  topology(builder: StreamsBuilder): void {
    builder
      .stream<string, string>(INPUT_TOPIC, { keySerde: "string", valueSerde: "string" })
      .mapValues((seq): Tick => ({ seq: Number(seq), sentAt: performance.timeOrigin + performance.now() }))
      .toEventStream(EVENT_TYPE);
  }
}

/** A package folder whose descriptor lists TicksProvider, for `plugins.packages`; removed by the caller. */
export function writeTicksPackage(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-sse-bench-"));
  fs.mkdirSync(path.join(folder, "META-INF", "services"), { recursive: true });
  fs.writeFileSync(path.join(folder, "META-INF", "services", TOPOLOGY_PROVIDER_CONTRACT), `${path.join(__dirname, "ticks-provider")}#TicksProvider\n`);
  return folder;
}
