/** The LogStore for `broker.storage: memory`: the same logs as the file store, with segments held in memory. */
import { memoryOnlyJournal } from "./journaled-offset-store";
import { memoryLogStartCheckpoint } from "./log-start-checkpoint";
import { memorySegmentStorageFactory } from "./memory-segment-storage";
import { PartitionedLogStore, type LogStoreBackend, type LogStoreConfig } from "./partitioned-log-store";
import { SegmentedPartitionLog } from "./segmented-partition-log";

const nothingToPersist = async (): Promise<void> => undefined;

/**
 * Producer ids count up from the time in microseconds: a memory broker started again knows none
 * of the ids it gave before, which its earlier clients may still write with.
 */
let nextProducerId = BigInt(Date.now()) * 1000n;

const memoryBackend: LogStoreBackend = {
  loadTopics: async () => new Map(),
  openOffsetJournal: async () => ({ ...memoryOnlyJournal, close: nothingToPersist }),
  openPartition: (topic, partition, settings, context) =>
    SegmentedPartitionLog.create(topic, partition, settings, { ...context, storageFactory: memorySegmentStorageFactory, logStartCheckpoint: memoryLogStartCheckpoint }),
  saveTopic: nothingToPersist,
  forgetTopic: nothingToPersist,
  removeTopicData: nothingToPersist,
  reserveProducerIds: async (count) => {
    const first = nextProducerId;
    nextProducerId += count;
    return first;
  },
};

export class MemoryLogStore extends PartitionedLogStore {
  constructor(options: LogStoreConfig) {
    super(options, memoryBackend);
  }
}
