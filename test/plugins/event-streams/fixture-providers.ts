/** Topology providers of the event stream tests, and the package folder that lists them. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { EventStreamDeclaration, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { TOPOLOGY_PROVIDER_CONTRACT } from "../../../kernel/contracts/streams/topology-provider";

export interface BurstRequest {
  stream: string;
  count: number;
  size: number;
}

/** Queue size of the three limit-handler streams. */
export const LIMITED_QUEUE_SIZE = 5;

/**
 * `bursts`: each record of topic `bursts` (JSON `{ stream, count, size }`) makes the topology send `count`
 * events of `size` characters into the named event stream in one go: floods and bursts with little Kafka traffic.
 */
export class BurstProvider implements TopologyProvider {
  readonly name = "Bursts";
  readonly version = "1.0.0";
  readonly config = { "application.id": "bursts" };
  readonly eventStreams: EventStreamDeclaration[] = [
    { type: "firehose", queueSize: 100_000, limitHandler: "drop_head" },
    { type: "drop-head", queueSize: LIMITED_QUEUE_SIZE, limitHandler: "drop_head" },
    { type: "log-and-continue", queueSize: LIMITED_QUEUE_SIZE, limitHandler: "log_and_continue" },
    { type: "throw", queueSize: LIMITED_QUEUE_SIZE, limitHandler: "throw" },
  ];

  topology(builder: StreamsBuilder): void {
    const requests = builder.stream<string, BurstRequest>("bursts", { keySerde: "string", valueSerde: "json" });
    for (const { type } of this.eventStreams) {
      requests
        .filter((_key, request) => request.stream === type)
        .flatMapValues((request) => Array.from({ length: request.count }, (_, i) => `${i}:${"x".repeat(request.size)}`))
        .toEventStream(type);
    }
  }
}

/** Declares the same event stream type twice. */
export class DuplicateTypeProvider implements TopologyProvider {
  readonly name = "DuplicateType";
  readonly version = "1.0.0";
  readonly config = { "application.id": "duplicate-type" };
  readonly eventStreams: EventStreamDeclaration[] = [
    { type: "twice", queueSize: 10, limitHandler: "drop_head" },
    { type: "twice", queueSize: 20, limitHandler: "throw" },
  ];

  topology(builder: StreamsBuilder): void {
    builder.stream<string, string>("duplicate-type-input", { keySerde: "string", valueSerde: "string" }).toEventStream("twice");
  }
}

/** A package folder whose descriptor lists the named providers of this module, for `plugins.packages`; removed by the caller. */
export function writeProviderPackage(...exportNames: ("BurstProvider" | "DuplicateTypeProvider")[]): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-event-streams-"));
  fs.mkdirSync(path.join(folder, "META-INF", "services"), { recursive: true });
  const lines = exportNames.map((name) => `${path.join(__dirname, "fixture-providers")}#${name}\n`).join("");
  fs.writeFileSync(path.join(folder, "META-INF", "services", TOPOLOGY_PROVIDER_CONTRACT), lines);
  return folder;
}
