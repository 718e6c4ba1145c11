/**
 * A golden scenario's script.json, as the Java recorder reads it (reference/scenarios/README.md): topics with
 * their serdes, the configuration both sides share, and steps flattened into actions. Each piped record, each
 * wall-clock advance and each store read is one action; a golden tags what an action caused with its index.
 */
import * as fs from "fs";
import * as path from "path";

export type TopicSerde = "string" | "long" | "int" | "double" | "json" | "bytes" | { windowed: TopicSerde; size: number } | { session: TopicSerde };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type Header = [string, string | null];

type ScriptRecord = [JsonValue, JsonValue, number, Header[]?] | { key: JsonValue; value: JsonValue; timestamp: number; headers?: Header[]; partition?: number };

export interface ScenarioScript {
  about: string;
  topics: Record<string, { key: TopicSerde; value: TopicSerde }>;
  /** Streams configuration given to both sides, over the baseline (string serdes, no record cache). */
  config?: Record<string, string | number>;
  /** Partitions of every topic on the Sluice side; Kafka Streams' TopologyTestDriver always runs one. */
  partitions?: number;
  wallClockStart?: number;
  /** The scenario whose topology (Scenario.java, topology.ts) this one runs with its own input. */
  topologyOf?: string;
  /** Stores the golden does not list (the recorder leaves them out), each with the reason. */
  storesLeftOut?: Record<string, string>;
  steps: ({ pipe: string; records: ScriptRecord[] } | { advance: number } | { read: string })[];
}

export type Action =
  | { kind: "pipe"; topic: string; key: JsonValue; value: JsonValue; timestamp: number; headers: Header[]; partition?: number }
  | { kind: "advance"; ms: number }
  | { kind: "read"; store: string };

export function readScript(scenarioDir: string): ScenarioScript {
  return JSON.parse(fs.readFileSync(path.join(scenarioDir, "script.json"), "utf8")) as ScenarioScript;
}

export function actionsOf(script: ScenarioScript): Action[] {
  return script.steps.flatMap((step): Action[] => {
    if ("pipe" in step) {
      if (!(step.pipe in script.topics)) throw new Error(`script.json declares no topic '${step.pipe}'`);
      return step.records.map((record) => pipeOf(step.pipe, record));
    }
    if ("advance" in step) return [{ kind: "advance", ms: step.advance }];
    return [{ kind: "read", store: step.read }];
  });
}

function pipeOf(topic: string, record: ScriptRecord): Action {
  if (Array.isArray(record)) {
    const [key, value, timestamp, headers = []] = record;
    return { kind: "pipe", topic, key, value, timestamp, headers };
  }
  return { kind: "pipe", topic, key: record.key, value: record.value, timestamp: record.timestamp, headers: record.headers ?? [], partition: record.partition };
}
