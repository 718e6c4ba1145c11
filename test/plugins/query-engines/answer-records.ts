/** The records of a query engine's answer, whether it streams them or gives them whole. */
import { isStreamedAnswer, type QueryAnswer, type QueryRecord } from "../../../kernel/contracts/query-engine";

export async function answerRecords(answer: QueryAnswer): Promise<QueryRecord[]> {
  if (!isStreamedAnswer(answer)) return [...(await answer)];
  const records: QueryRecord[] = [];
  for await (const record of answer) records.push(record);
  return records;
}
