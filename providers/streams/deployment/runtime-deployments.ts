/**
 * Deploy, pause, resume and terminate on the streams runtime, each decision written to the deployments file
 * before it takes effect, so that a crash at any point leaves the file saying what the next start must do.
 */
import type { DeployRequest, StreamsDeployments, TopologyVersion } from "../../../kernel/contracts/streams/deployments";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { ANONYMOUS, type Principal } from "../../../kernel/http/auth/principal";
import { badRequest, conflict, HttpError, notFound } from "../../../kernel/http/http-error";
import type { ComponentLogger } from "../../../kernel/logger";
import type { StreamsRuntime } from "../streams-runtime";
import { deployedConfig, type DeployPolicy } from "./deployed-config";
import type { DeployedInstance, DeploymentDecisions, DeploymentFile } from "./deployment-file";
import { FailedDeployment } from "../application/failed-deployment";
import { clearSecrets, isSealed, type SecretSealer } from "./sealed-secrets";
import type { TopologyCatalogue } from "./topology-catalogue";

const applicationIdOf = (config: Readonly<Record<string, unknown>>) => String(config["application.id"] ?? "");
const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id);
/** Who deployed what deployments.json keeps: an admin once, checked again against today's rules. */
const KEPT_DECISION: Principal = Object.freeze({ name: "deployments.json", role: "admin", mechanism: "none" });

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
    private readonly policy: DeployPolicy,
    /** Seals the secrets deployments.json keeps; undefined: `streams.deployments.key.location` is not set. */
    private readonly sealer: SecretSealer | undefined,
  ) {}

  /**
   * Adds the instances the next start runs: the boot-time ones not terminated over REST, then the deployed ones,
   * paused where the file says. A deployed instance that cannot be created (a topology version Sluice no longer has,
   * a configuration a deploy request may no longer give) is listed in ERROR with its reason; the others start.
   */
  boot(): void {
    this.decisions = this.file.read();
    const deployedIds = new Set(this.decisions.deployed.map((instance) => instance.id));
    for (const provider of this.catalogue.bootProviders()) {
      const id = applicationIdOf(provider.config);
      if (!deployedIds.has(id) && !this.decisions.terminated.includes(id)) this.runtime().addProvider(provider);
    }
    for (const instance of this.decisions.deployed) {
      try {
        this.restore(instance);
      } catch (error) {
        const reason = `${this.file.path} deploys '${instance.id}' from topology '${instance.topology}' version '${instance.version}', which cannot start: ${(error as Error).message}`;
        this.logger.error("deployed application failed to start", { applicationId: instance.id, error: reason });
        this.runtime().addFailed(new FailedDeployment(instance.id, instance.topology, instance.version, `DeploymentError: ${reason}`, instance.config));
      }
    }
    // A file of an earlier Sluice may hold secrets in clear: sealed now that there is a key.
    if (this.sealer && this.decisions.deployed.some((instance) => clearSecrets(instance.config).length > 0)) {
      this.save({ ...this.decisions, deployed: this.decisions.deployed.map((instance) => ({ ...instance, config: this.sealer!.seal(instance.id, instance.config) })) });
    }
    for (const id of this.decisions.paused) this.runtime().application(id)?.pause();
    if (this.decisions.deployed.length + this.decisions.paused.length + this.decisions.terminated.length > 0) {
      this.logger.info("deployments restored", { file: this.file.path, deployed: [...deployedIds], paused: this.decisions.paused, terminated: this.decisions.terminated });
    }
  }

  topologies(): TopologyVersion[] {
    return this.catalogue.describe();
  }

  async deploy(request: DeployRequest, caller: Principal = ANONYMOUS): Promise<ApplicationHandle> {
    const provider = this.catalogue.find(request.topology, request.version);
    const { id, config } = deployedConfig(provider, request.config, this.policy, caller);
    const existing = this.runtime().application(id);
    if (existing) throw conflict(`Field 'config.application.id': an instance '${id}' exists already (${existing.state}); terminate it first`);
    let application;
    try {
      application = this.runtime().addProvider(provider, config);
    } catch (error) {
      throw badRequest(`Topology '${provider.name}' ${provider.version} cannot run with this configuration: ${(error as Error).message}`);
    }
    try {
      const kept = this.sealer ? this.sealer.seal(id, config) : config;
      this.save({ ...this.decisions, deployed: [...this.decisions.deployed, { id, topology: provider.name, version: provider.version, config: kept }] });
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

  /** Checks a kept deployment as a deploy request is checked now (it may come from an earlier Sluice), and adds it. */
  private restore(instance: DeployedInstance): void {
    const provider = this.catalogue.find(instance.topology, instance.version);
    let config: Record<string, ConfigValue> = instance.config;
    if (Object.values(config).some(isSealed)) {
      if (!this.sealer) throw new Error("its secrets are sealed, and streams.deployments.key.location is not set");
      config = this.sealer.open(instance.id, config);
    }
    const checked = deployedConfig(provider, config, { ...this.policy, secretsKept: this.policy.secretsKept || clearSecrets(config).length === 0 }, KEPT_DECISION);
    this.runtime().addProvider(provider, checked.config);
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
