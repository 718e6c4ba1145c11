/**
 * The application states and their allowed transitions (Kafka Streams' KafkaStreams.State, plus restarting a
 * stopped or failed application), each change timestamped and announced to listeners.
 */
import type { ApplicationState, StateChange } from "../../../kernel/contracts/streams/runtime";

const TRANSITIONS: Record<ApplicationState, readonly ApplicationState[]> = {
  CREATED: ["REBALANCING", "PENDING_SHUTDOWN", "ERROR"],
  REBALANCING: ["RUNNING", "REBALANCING", "PENDING_SHUTDOWN", "ERROR"],
  RUNNING: ["REBALANCING", "PENDING_SHUTDOWN", "ERROR"],
  PENDING_SHUTDOWN: ["NOT_RUNNING"],
  NOT_RUNNING: ["REBALANCING", "PENDING_SHUTDOWN"],
  ERROR: ["PENDING_SHUTDOWN"],
};

export class ApplicationLifecycle {
  private current: ApplicationState = "CREATED";
  private since: number;
  private readonly listeners = new Set<(change: StateChange) => void>();

  constructor(private readonly applicationId: string, private readonly clock: () => number = Date.now) {
    this.since = clock();
  }

  get state(): ApplicationState {
    return this.current;
  }

  get stateSince(): number {
    return this.since;
  }

  canMoveTo(next: ApplicationState): boolean {
    return TRANSITIONS[this.current].includes(next);
  }

  /** Moves to `next`; returns false (and changes nothing) when the transition is not allowed. */
  moveTo(next: ApplicationState): boolean {
    if (!this.canMoveTo(next)) return false;
    const change: StateChange = { applicationId: this.applicationId, from: this.current, to: next, at: this.clock() };
    this.current = next;
    this.since = change.at;
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's failure must not stop the application's own state handling.
      }
    }
    return true;
  }

  onChange(listener: (change: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
