/** The runtime's shapes as the JSON bodies of docs/api.md#streams (snake_case, sorted where the API says). */
import type { ApplicationHandle, ApplicationOffsets, ApplicationStatus, TaskStatus } from "sluice";
import { formatZonedDateTime } from "./zoned-date-time";

export function instanceDescription(application: ApplicationHandle): Record<string, unknown> {
  const description: Record<string, unknown> = {
    id: application.id,
    name: application.name,
    version: application.version,
    description: application.description,
    since: formatZonedDateTime(application.since),
    // `paused` beside the state (RUNNING or REBALANCING while it runs), as Kafka Streams' isPaused: only when true.
    state: { state: application.state, since: formatZonedDateTime(application.stateSince), ...(application.paused ? { paused: true } : {}) },
    config: application.config(),
  };
  if (application.exception !== null) description.exception = application.exception;
  if (application.restarts > 0) description.restarts = application.restarts;
  return description;
}

export function statusJson(status: ApplicationStatus): Record<string, unknown> {
  return {
    id: status.id,
    state: status.state,
    threads: status.threads.map((thread) => ({
      name: thread.name,
      state: thread.state,
      active_tasks: thread.activeTasks.map(taskJson),
      standby_tasks: thread.standbyTasks.map(taskJson),
      clients: {
        consumer_client_id: thread.clients.consumerClientId,
        producer_client_ids: thread.clients.producerClientIds,
        admin_client_id: thread.clients.adminClientId,
      },
    })),
  };
}

function taskJson(task: TaskStatus): Record<string, unknown> {
  return { task_id: task.taskId, topic_partitions: task.topicPartitions.map(({ topic, partition }) => ({ topic, partition })) };
}

export function offsetsJson(offsets: ApplicationOffsets): Record<string, unknown> {
  return {
    group: offsets.group,
    consumers: offsets.consumers.map((consumer) => ({
      client_id: consumer.clientId,
      stream_thread: consumer.streamThread,
      positions: consumer.positions.map((position) => ({
        topic: position.topic,
        partition: position.partition,
        consumed_offset: position.consumedOffset,
        consumed_timestamp: position.consumedTimestamp,
        committed_offset: position.committedOffset,
        committed_timestamp: position.committedTimestamp,
        log_end_offset: position.logEndOffset,
        log_start_offset: position.logStartOffset,
        lag: position.lag,
      })),
    })),
  };
}
