/** The JSON of the servers record (API.md §2.1). */
import type { InstanceInfo } from "../../kernel/contracts/streams/runtime";

export function serversRecord(id: string, instances: readonly InstanceInfo[]) {
  return {
    id,
    instances: instances.map((instance) => ({
      server: instance.server,
      is_local: instance.isLocal,
      stores: instance.stores,
      assignments: instance.assignments,
      standby_assignments: instance.standbyAssignments,
    })),
  };
}
