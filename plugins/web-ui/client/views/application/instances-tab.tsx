/** The application's instances across its group with their partitions, and this instance's threads and tasks. */
import type { ServersRecord, Status } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { TableHead } from "../../components/table-head";
import { usePoll } from "../../live/use-poll";
import { applicationsPath, streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";

const assignmentText = (assignments: { topic: string; partitions: number[] }[]) =>
  assignments.length === 0 ? "none" : assignments.map(({ topic, partitions }) => `${topic} [${partitions.join(", ")}]`).join("; ");

export function InstancesTab({ id }: TabProps) {
  const { api } = useSession();
  const servers = usePoll(() => api.get<ServersRecord>(applicationsPath(id)), [id]);
  const status = usePoll(() => api.get<Status>(streamsPath(id, "/status")), [id]);
  return (
    <>
      <h2>Instances</h2>
      <ErrorNotice error={servers.error} />
      {!servers.data ? (
        !servers.error && <Loading what="the instances" />
      ) : (
        <table>
          <caption class="visually-hidden">Instances of the application and their partition assignments</caption>
          <TableHead columns={["Server", "Stores", "Active partitions", "Standby partitions"]} />
          <tbody>
            {servers.data.instances.map((instance) => (
              <tr key={instance.server ?? instance.member_id}>
                <th scope="row">
                  {instance.server ?? <span class="muted">no application.server (member {instance.member_id})</span>}
                  {instance.is_local && <span class="badge">this instance</span>}
                  {instance.state && <span class="badge badge-warning">{instance.state}</span>}
                </th>
                <td>{instance.stores.join(", ") || "none"}</td>
                <td>{assignmentText(instance.assignments)}</td>
                <td>{assignmentText(instance.standby_assignments)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Threads and tasks of this instance</h2>
      <ErrorNotice error={status.error} />
      {status.data &&
        (status.data.threads.length === 0 ? (
          <p class="muted">No thread runs: the application is {status.data.state}.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Stream threads and their tasks</caption>
            <TableHead columns={["Thread", "State", "Active tasks", "Standby tasks"]} />
            <tbody>
              {status.data.threads.map((thread) => (
                <tr key={thread.name}>
                  <th scope="row">{thread.name}</th>
                  <td>{thread.state}</td>
                  <td>{thread.active_tasks.map((task) => `${task.task_id} (${task.topic_partitions.map((tp) => `${tp.topic} [${tp.partition}]`).join(", ")})`).join("; ") || "none"}</td>
                  <td>{thread.standby_tasks.map((task) => task.task_id).join(", ") || "none"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </>
  );
}
