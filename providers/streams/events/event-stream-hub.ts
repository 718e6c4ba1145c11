/** Fans the records a topology sends into its declared event streams out to subscribers (the SSE plugin). */
import type { EventRecord, EventStreamHub } from "../../../kernel/contracts/streams/runtime";
import type { EventStreamDeclaration } from "../../../kernel/contracts/streams/topology-provider";
import type { Logger } from "../logger";

export class LocalEventStreamHub implements EventStreamHub {
  private readonly listeners = new Map<string, Set<(record: EventRecord) => void>>();
  private readonly closeListeners = new Set<() => void>();

  constructor(private readonly declared: readonly EventStreamDeclaration[], private readonly logger: Logger) {
    for (const declaration of declared) this.listeners.set(declaration.type, new Set());
  }

  declarations(): readonly EventStreamDeclaration[] {
    return this.declared;
  }

  subscribe(type: string, listener: (record: EventRecord) => void): () => void {
    const listeners = this.listeners.get(type);
    if (!listeners) throw new Error(`unknown event stream '${type}'`);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** A subscriber's failure is its own: it never reaches the topology or the other subscribers. */
  send(type: string, key: unknown, value: unknown, timestamp: number): void {
    const listeners = this.listeners.get(type);
    if (!listeners) throw new Error(`event stream '${type}' is not declared by the topology provider`);
    const record: EventRecord = { type, key, value, timestamp };
    for (const listener of listeners) {
      try {
        listener(record);
      } catch (error) {
        this.logger.warn("event stream subscriber failed", { type, error: String(error) });
      }
    }
  }

  /** Ends every open stream (the application stopped); subscribers stay registered for the next run. */
  closeStreams(): void {
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }
}
