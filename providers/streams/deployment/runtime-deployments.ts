/**
 * Deploy, pause, resume and terminate on the streams runtime, each decision written to the deployments file
 * before it takes effect, so that a crash at any point leaves the file saying what the next start must do.
 */
import type { DeployRequest, StreamsDeployments, TopologyVersion } from "../../../kernel/contracts/streams/deployments";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import { StartupError } from "../../../kernel/errors";
import { badRequest, conflict, HttpError, notFound } from "../../../kernel/http/http-error";
import type { ComponentLogger } from "../../../kernel/logger";
import type { StreamsRuntime } from "../streams-runtime";
import { deployedConfig } from "./deployed-config";
import type { DeploymentDecisions, DeploymentFile } from "./deployment-file";
import type { TopologyCatalogue } from "./topology-catalogue";

const applicationIdOf = (config: Readonly<Record<string, unknown>>) => String(config["application.id"] ?? "");
const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id);

export class RuntimeDeployments implements StreamsDeployments {
  private decisions: DeploymentDecisions = { deployed: [], paused: [], terminated: [] };
  private readonly terminating = new Set<string>();

  /**
   * `runtime` is made when the streams plugin starts, after the HTTP server listens, and is gone once it closes:
   * meanwhile, changes are 503s.
   */
  constructor(
    private readonly startedRuntime: () => StreamsRuntime | undefined,
    private readonly catalogue: TopologyCatalogue,
    private readonly file: DeploymentFile,
    private readonly logger: ComponentLogger,
  ) {}

  /**
   * Adds the instances the next start runs: the boot-time ones not terminated over REST, then the deployed ones,
   * paused where the file says. A deployment of a topology version Sluice no longer has stops startup naming both.
   */
  boot(): void {
    this.decisions = this.file.read();
    const deployedIds = new Set(this.decisions.deployed.map((instance) => instance.id));
    for (const provider of this.catalogue.bootProviders()) {
      const id = applicationIdOf(provider.config);
      if (!deployedIds.has(id) && !this.decisions.terminated.includes(id)) this.runtime().addProvider(provider);
    }
    for (const instance of this.decisions.deployed) {
      let provider;
      try {
        provider = this.catalogue.find(instance.topology, instance.version);
      } catch (error) {
        throw new StartupError(`${this.file.path} deploys '${instance.id}' from topology '${instance.topology}' version '${instance.version}', which Sluice does not have: ${(error as Error).message}`);
      }
      this.runtime().addProvider(provider, instance.config);
    }
    for (const id of this.decisions.paused) this.runtime().application(id)?.pause();
    if (this.decisions.deployed.length + this.decisions.paused.length + this.decisions.terminated.length > 0) {
      this.logger.info("deployments restored", { file: this.file.path, deployed: [...deployedIds], paused: this.decisions.paused, terminated: this.decisions.terminated });
    }
  }

  topologies(): TopologyVersion[] {
    return this.catalogue.describe();
  }

  async deploy(request: DeployRequest): Promise<ApplicationHandle> {
    const provider = this.catalogue.find(request.topology, request.version);
    const { id, config } = deployedConfig(provider, request.config);
    const existing = this.runtime().application(id);
    if (existing) throw conflict(`Field 'config.application.id': an instance '${id}' exists already (${existing.state}); terminate it first`);
    let application;
    try {
      application = this.runtime().addProvider(provider, config);
    } catch (error) {
      throw badRequest(`Topology '${provider.name}' ${provider.version} cannot run with this configuration: ${(error as Error).message}`);
    }
    try {
      this.save({ ...this.decisions, deployed: [...this.decisions.deployed, { id, topology: provider.name, version: provider.version, config }] });
    } catch (error) {
      await this.runtime().remove(id, { cleanup: false, timeoutMs: 0 });
      throw error;
    }
    this.logger.info("application deployed", { applicationId: id, topology: provider.name, version: provider.version });
    await application.start();
    return application;
  }

  async terminate(id: string, options: { cleanup: boolean; timeoutMs: number }): Promise<void> {
    this.require(id);
    if (this.terminating.has(id)) throw conflict(`Application '${id}' is being terminated already`);
    this.terminating.add(id);
    try {
      const bootTime = this.catalogue.bootProviders().some((provider) => applicationIdOf(provider.config) === id);
      const { deployed, paused, terminated } = this.decisions;
      this.save({
        deployed: deployed.filter((instance) => instance.id !== id),
        paused: without(paused, id),
        terminated: bootTime && !terminated.includes(id) ? [...terminated, id] : terminated,
      });
      await this.runtime().remove(id, options);
      this.logger.info("application terminated", { applicationId: id, cleanup: options.cleanup });
    } finally {
      this.terminating.delete(id);
    }
  }

  async pause(id: string): Promise<ApplicationHandle> {
    const application = this.require(id);
    if (!this.decisions.paused.includes(id)) this.save({ ...this.decisions, paused: [...this.decisions.paused, id] });
    application.pause();
    return application;
  }

  async resume(id: string): Promise<ApplicationHandle> {
    const application = this.require(id);
    if (this.decisions.paused.includes(id)) this.save({ ...this.decisions, paused: without(this.decisions.paused, id) });
    application.resume();
    return application;
  }

  private runtime(): StreamsRuntime {
    const runtime = this.startedRuntime();
    if (!runtime) throw new HttpError(503, "The streams runtime is starting or shutting down: it takes no deployment, pause or termination now");
    return runtime;
  }

  private require(id: string): ApplicationHandle {
    const application = this.runtime().application(id);
    if (!application) throw notFound(`Unknown application '${id}'`);
    return application;
  }

  private save(decisions: DeploymentDecisions): void {
    this.file.write(decisions);
    this.decisions = decisions;
  }
}
