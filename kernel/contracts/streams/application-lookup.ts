/**
 * The applications a request names, through the streams runtime plugins share (STREAMS_RUNTIME_TOKEN). Resolved
 * at each call: Sluice may run without a runtime (no applications, every id unknown).
 */
import type { ComponentRegistry } from "../../components/component-registry";
import { notFound } from "../../http/http-error";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle } from "./runtime";

export class ApplicationLookup {
  constructor(private readonly components: ComponentRegistry) {}

  /** The running applications, sorted by id; none when no runtime is installed. */
  applications(): ApplicationHandle[] {
    return this.components.resolveOptional(STREAMS_RUNTIME_TOKEN)?.applications() ?? [];
  }

  ids(): string[] {
    return this.applications().map((application) => application.id);
  }

  /** The application, or a 404 naming it. */
  require(id: string): ApplicationHandle {
    const application = this.components.resolveOptional(STREAMS_RUNTIME_TOKEN)?.application(id);
    if (!application) throw notFound(`Unknown application '${id}'`);
    return application;
  }
}
