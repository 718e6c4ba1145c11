/**
 * Finds (FindCoordinator) and remembers the broker that coordinates one key: a consumer group's (key type 0) or a
 * transactional id's (key type 1). Forgotten after a lost connection or a "not the coordinator" answer, so the next
 * request asks again.
 */
import type { BrokerConnection } from "./broker-connection";
import { FIND_COORDINATOR } from "./client-apis";
import type { ConnectionPool } from "./connection-pool";
import { BrokerConnectionError } from "./kafka-client-errors";

export const CoordinatorKeyType = { GROUP: 0, TRANSACTION: 1 } as const;

export interface CoordinatorKey {
  key: string;
  keyType: (typeof CoordinatorKeyType)[keyof typeof CoordinatorKeyType];
}

export class CoordinatorLocator {
  private address: string | null = null;

  constructor(
    private readonly pool: ConnectionPool,
    /** The brokers to ask, tried in turn. */
    private readonly brokers: () => string[],
    private readonly coordinated: CoordinatorKey,
    /** The error that a FindCoordinator answered with `errorCode` by every broker rejects with. */
    private readonly refused: (errorCode: number) => Error,
  ) {}

  /** Whether the coordinator is known (it was found, and not forgotten since). */
  get known(): boolean {
    return this.address !== null;
  }

  /** A connection to the coordinator, found first when it is not known. */
  async connection(): Promise<BrokerConnection> {
    if (this.address !== null) return this.pool.get(this.address);
    let lastError: unknown = new BrokerConnectionError(this.brokers().join(", "), "no broker reachable");
    for (const address of this.brokers()) {
      try {
        const answer = await (await this.pool.get(address)).request(FIND_COORDINATOR, this.coordinated);
        if (answer.errorCode !== 0) {
          lastError = this.refused(answer.errorCode);
          continue;
        }
        this.address = `${answer.host}:${answer.port}`;
        return this.pool.get(this.address);
      } catch (error) {
        if (!(error instanceof BrokerConnectionError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  forget(): void {
    this.address = null;
  }
}
