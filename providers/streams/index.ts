/**
 * The streams runtime's face: the runtime the kernel plugin drives, the in-process test driver, and the
 * public surface topology providers compile against (DSL, Processor API, store interfaces, serdes).
 */
export { StreamsRuntime, type StreamsRuntimeOptions } from "./streams-runtime";
export { TopologyTestDriver, type TestDriverOptions } from "./testing/topology-test-driver";
export { TestRecord, type PipedRecord } from "./testing/test-record";
export { TestInputTopic, TestOutputTopic, type InputTopicOptions } from "./testing/test-topics";
export { Record, RecordHeaders } from "./processor/record-values";
export { Stores } from "./processor/stores";
export {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
} from "./processor/timestamp-extractors";
export { BUILTIN_SERDES, bytesSerde, doubleSerde, intSerde, jsonSerde, longSerde, stringSerde } from "./serdes/builtin-serdes";
export { sessionWindowedSerde, timeWindowedSerde } from "./serdes/windowed-serde";
export { Branched } from "./topology/values/branched";
export { BufferConfig, Suppressed } from "./topology/values/suppressed";
export { EmitStrategy, SessionWindows, SlidingWindows, TimeWindows } from "./topology/values/windows";
export { JoinWindows } from "./topology/values/join-windows";
export { StreamJoined } from "./topology/values/stream-joined";
export type * from "../../kernel/contracts/streams/dsl";
export type * from "../../kernel/contracts/streams/processor";
export type * from "../../kernel/contracts/streams/stores";
export { PUT_RETURN_CODE_NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED } from "../../kernel/contracts/streams/stores";
export type * from "../../kernel/contracts/streams/topology-provider";
export { TOPOLOGY_PROVIDER_CONTRACT } from "../../kernel/contracts/streams/topology-provider";
export type * from "../../kernel/contracts/streams/runtime";
