/**
 * The JSON of the servers record (docs/api.md#servers). A member without `application.server` is named by its member
 * id; this instance, while it is not running, by its state.
 */
import type { InstanceInfo } from "sluice";

export function serversRecord(id: string, instances: readonly InstanceInfo[]) {
  return {
    id,
    instances: instances.map((instance) => ({
      server: instance.server,
      ...(instance.server === null && instance.memberId !== null ? { member_id: instance.memberId } : {}),
      is_local: instance.isLocal,
      ...(instance.state !== undefined ? { state: instance.state } : {}),
      stores: instance.stores,
      assignments: instance.assignments,
      standby_assignments: instance.standbyAssignments,
    })),
  };
}
