/** Reading back what Sluice's encoder wrote: the records of finished batches, as text. */
import { FetchedRecords, finishBatches, type EncodedBatch, type OpenRecordBatch } from "../../providers/kafka-protocol";

export interface RecordText {
  key: string | null;
  value: string | null;
  timestamp: number;
  headers?: Record<string, string | null>;
}

/** The records of `batches`, in order; open batches are finished first (no codec, no producer). */
export function recordsOf(batches: readonly (EncodedBatch | OpenRecordBatch)[]): RecordText[] {
  const finished = batches.map((batch) => ("baseTimestamp" in batch ? finishBatches([batch])[0] : batch));
  const reader = new FetchedRecords(Buffer.concat(finished.map(({ bytes }) => bytes)), 0, "test-0");
  const texts: RecordText[] = [];
  for (let record = reader.read(); record !== undefined; record = reader.read()) {
    const text: RecordText = { key: record.key === null ? null : String(record.key), value: record.value === null ? null : String(record.value), timestamp: record.timestamp };
    const headers = record.headers;
    if (headers !== undefined) text.headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === null ? null : String(value)]));
    texts.push(text);
  }
  return texts;
}
