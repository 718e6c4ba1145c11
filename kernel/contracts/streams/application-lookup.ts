/**
 * The applications a request names, through the streams runtime plugins share (STREAMS_RUNTIME_TOKEN). Sluice may
 * run without a runtime (no applications, every id unknown). The kernel registers one lookup for every plugin
 * (APPLICATION_LOOKUP), so a plugin needs neither the runtime's token resolved per request nor a class of the kernel's.
 */
import type { ComponentRegistry } from "../../components/component-registry";
import { notFound } from "../../http/http-error";
import { token } from "../token";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle, type ApplicationRegistry } from "./runtime";

export interface ApplicationLookup {
  /** The running applications, sorted by id; none when no runtime is installed. */
  applications(): ApplicationHandle[];
  ids(): string[];
  /** The application, or a 404 naming it. */
  require(id: string): ApplicationHandle;
}

export const APPLICATION_LOOKUP = token<ApplicationLookup>("sluice.streams.ApplicationLookup");

/** The runtime is kept until the next registration in the container: resolving it on every request cost each one a resolution context. */
export class RuntimeApplicationLookup implements ApplicationLookup {
  private found: ApplicationRegistry | undefined;
  private foundAt = -1;

  constructor(private readonly components: ComponentRegistry) {}

  applications(): ApplicationHandle[] {
    return this.runtime()?.applications() ?? [];
  }

  ids(): string[] {
    return this.applications().map((application) => application.id);
  }

  require(id: string): ApplicationHandle {
    const application = this.runtime()?.application(id);
    if (!application) throw notFound(`Unknown application '${id}'`);
    return application;
  }

  private runtime(): ApplicationRegistry | undefined {
    const { generation } = this.components;
    if (this.foundAt !== generation) {
      this.found = this.components.resolveOptional(STREAMS_RUNTIME_TOKEN);
      this.foundAt = generation;
    }
    return this.found;
  }
}
