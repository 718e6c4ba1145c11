/** A small assignor for tests of the group consumer. */
import type { GroupAssignor } from "../../../providers/kafka-client";
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../providers/kafka-protocol";

/** Partition i of every subscribed topic goes to the (i mod n)-th member by id. */
export const roundRobinAssignor = (topics: string[]): GroupAssignor => ({
  name: "test-round-robin",
  subscription: () => encodeSubscription(topics, null),
  assign: async (members, partitionCount) => {
    const ids = members.map((member) => member.memberId).sort();
    const plan = new Map<string, Record<string, number[]>>(ids.map((id) => [id, {}]));
    for (const topic of decodeSubscription(members[0].metadata).topics) {
      for (let partition = 0; partition < (partitionCount(topic) ?? 0); partition++) (plan.get(ids[partition % ids.length])![topic] ??= []).push(partition);
    }
    return new Map([...plan].map(([id, assignment]) => [id, encodeAssignment(assignment)]));
  },
  partitionsOf: decodeAssignment,
});
