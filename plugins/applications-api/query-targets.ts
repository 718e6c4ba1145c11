/**
 * What a query on one store of one application needs besides the request: the store handle, this server's
 * address and the record renderer. All of it is fixed for the application's lifetime, so it is looked up once
 * per store instead of once per request.
 */
import type { ApplicationHandle, JsonRenderer, StoreHandle } from "sluice";
import { recordText, type RecordText } from "./record-rendering";

export interface QueryTarget {
  application: ApplicationHandle;
  store: StoreHandle;
  /** This server's `host:port`. */
  server: string;
  /** The same as a JSON string, as the answer carries it. */
  serverJson: string;
  toJson: RecordText;
}

export class QueryTargets {
  // Keyed by the handle: an application started anew under the same id gets targets of its own.
  private readonly byApplication = new WeakMap<ApplicationHandle, Map<string, QueryTarget>>();

  constructor(
    private readonly renderer: JsonRenderer,
    /** The application's `application.server`, or this server's address when it has none. */
    private readonly serverOf: (application: ApplicationHandle) => string,
  ) {}

  /** Undefined for a store the application's topology does not have (never cached: any name may be asked). */
  of(application: ApplicationHandle, storeName: string): QueryTarget | undefined {
    let targets = this.byApplication.get(application);
    if (!targets) {
      targets = new Map();
      this.byApplication.set(application, targets);
    }
    let target = targets.get(storeName);
    if (target) return target;
    const store = application.store(storeName);
    if (!store) return undefined;
    const server = this.serverOf(application);
    target = { application, store, server, serverJson: JSON.stringify(server), toJson: recordText(this.renderer, application.id, store) };
    targets.set(storeName, target);
    return target;
  }
}
