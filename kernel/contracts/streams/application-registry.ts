import type { ApplicationHandle } from "./runtime";

/**
 * The applications running in this process, registered in the container under STREAMS_RUNTIME_TOKEN by the
 * streams runtime plugin; the REST plugins (streams, applications, events) resolve it.
 */
export interface ApplicationRegistry {
  /** Sorted by id. */
  applications(): ApplicationHandle[];
  application(id: string): ApplicationHandle | undefined;
}
