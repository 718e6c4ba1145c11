/** The LogStore for `broker.storage: memory`: the same logs as the file store, with segments held in memory. */
import { memoryOnlyJournal } from "./journaled-offset-store";
import { memoryLogStartCheckpoint } from "./log-start-checkpoint";
import { memorySegmentStorageFactory } from "./memory-segment-storage";
import { PartitionedLogStore, type LogStoreBackend, type LogStoreConfig } from "./partitioned-log-store";
import { SegmentedPartitionLog } from "./segmented-partition-log";

const nothingToPersist = async (): Promise<void> => undefined;

const memoryBackend: LogStoreBackend = {
  loadTopics: async () => new Map(),
  openOffsetJournal: async () => ({ ...memoryOnlyJournal, close: nothingToPersist }),
  openPartition: (topic, partition, settings, context) =>
    SegmentedPartitionLog.create(topic, partition, settings, { ...context, storageFactory: memorySegmentStorageFactory, logStartCheckpoint: memoryLogStartCheckpoint }),
  saveTopic: nothingToPersist,
  forgetTopic: nothingToPersist,
  removeTopicData: nothingToPersist,
};

export class MemoryLogStore extends PartitionedLogStore {
  constructor(options: LogStoreConfig) {
    super(options, memoryBackend);
  }
}
