/** Finds the application a request names, through the runtime registered in the container (resolved per request). */
import type { DependencyContainer } from "tsyringe";
import { notFound } from "../../kernel/http/http-error";
import type { ApplicationRegistry } from "../../kernel/contracts/streams/application-registry";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle } from "../../kernel/contracts/streams/runtime";

export class ApplicationLookup {
  constructor(private readonly components: DependencyContainer) {}

  /** The running applications; none when no runtime is installed. */
  registry(): ApplicationRegistry | undefined {
    return this.components.isRegistered(STREAMS_RUNTIME_TOKEN, true) ? this.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN) : undefined;
  }

  ids(): string[] {
    return (this.registry()?.applications() ?? []).map((application) => application.id);
  }

  /** The application, or a 404 naming it. */
  require(id: string): ApplicationHandle {
    const application = this.registry()?.application(id);
    if (!application) throw notFound(`Unknown application '${id}'`);
    return application;
  }
}
