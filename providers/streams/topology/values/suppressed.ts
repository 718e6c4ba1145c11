/**
 * Kafka Streams' Suppressed and BufferConfig factories, as a topology imports them from "sluice":
 * `Suppressed.untilWindowCloses(BufferConfig.unbounded())`, `Suppressed.untilTimeLimit(60_000,
 * BufferConfig.maxRecords(1000).emitEarlyWhenFull())`, `.withName("name")`.
 */
import type { BufferConfig as BufferConfigType, Suppressed as SuppressedType } from "../../../../kernel/contracts/streams/dsl";

export type BufferConfig = BufferConfigType;
export type Suppressed = SuppressedType;

/** A buffer configuration with Kafka Streams' builder methods; each returns a new one. */
export class BufferConfigBuilder implements BufferConfig {
  constructor(
    readonly whenFull: BufferConfig["whenFull"],
    readonly maxRecords?: number,
    readonly maxBytes?: number,
  ) {}

  withMaxRecords(maxRecords: number): BufferConfigBuilder {
    return new BufferConfigBuilder(this.whenFull, maxRecords, this.maxBytes);
  }
  withMaxBytes(maxBytes: number): BufferConfigBuilder {
    return new BufferConfigBuilder(this.whenFull, this.maxRecords, maxBytes);
  }
  /** Unbounded, and so never full. */
  withNoBound(): BufferConfigBuilder {
    return new BufferConfigBuilder("shut_down");
  }
  shutDownWhenFull(): BufferConfigBuilder {
    return new BufferConfigBuilder("shut_down", this.maxRecords, this.maxBytes);
  }
  emitEarlyWhenFull(): BufferConfigBuilder {
    return new BufferConfigBuilder("emit_early", this.maxRecords, this.maxBytes);
  }
}

export const BufferConfig = {
  unbounded: (): BufferConfigBuilder => new BufferConfigBuilder("shut_down"),
  maxRecords: (maxRecords: number): BufferConfigBuilder => new BufferConfigBuilder("emit_early", maxRecords),
  maxBytes: (maxBytes: number): BufferConfigBuilder => new BufferConfigBuilder("emit_early", undefined, maxBytes),
};

type Named = { withName(name: string): Suppressed & Named };

function named(suppressed: Suppressed): Suppressed & Named {
  return { ...suppressed, withName: (name: string) => named({ ...suppressed, name }) };
}

export const Suppressed = {
  untilWindowCloses: (bufferConfig: BufferConfig): Suppressed & Named => named({ type: "until_window_closes", bufferConfig }),
  untilTimeLimit: (timeLimitMs: number, bufferConfig: BufferConfig): Suppressed & Named => named({ type: "until_time_limit", timeLimitMs, bufferConfig }),
};
