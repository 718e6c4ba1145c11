/**
 * The applications a request names, through the streams runtime plugins share (STREAMS_RUNTIME_TOKEN). Sluice may
 * run without a runtime (no applications, every id unknown). The runtime is kept until the next registration in the
 * container: resolving it on every request cost each one a resolution context.
 */
import type { ComponentRegistry } from "../../components/component-registry";
import { notFound } from "../../http/http-error";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle, type ApplicationRegistry } from "./runtime";

export class ApplicationLookup {
  private found: ApplicationRegistry | undefined;
  private foundAt = -1;

  constructor(private readonly components: ComponentRegistry) {}

  /** The running applications, sorted by id; none when no runtime is installed. */
  applications(): ApplicationHandle[] {
    return this.runtime()?.applications() ?? [];
  }

  ids(): string[] {
    return this.applications().map((application) => application.id);
  }

  /** The application, or a 404 naming it. */
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
