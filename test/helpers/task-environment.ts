/** A task environment for tests and benches that run a task by hand: outputs to `emit`, errors thrown, no metrics kept. */
import type { OutputRecord, TaskEnvironment } from "../../providers/streams/engine/stream-task";
import { MetricsRegistry } from "../../providers/streams/metrics/metrics-registry";
import { streamsMetrics } from "../../providers/streams/metrics/streams-metrics";

export function bareTaskEnvironment(applicationId: string, stateDir: string, emit: (record: OutputRecord) => void): TaskEnvironment {
  const registry = new MetricsRegistry();
  return {
    applicationId,
    appConfigs: { "application.id": applicationId },
    stateDir: (taskId) => `${stateDir}/${applicationId}/${taskId}`,
    metrics: (taskId) => streamsMetrics(registry, "INFO", { "task-id": taskId }),
    emit,
    sendEvent: () => undefined,
    onError: (error) => {
      throw error;
    },
    now: Date.now,
  };
}
