/**
 * A plugin's view of the component registry, which holds it to its declarations: it resolves only the components it
 * lists in `requires` (optional ones included) or `provides`, and the kernel's few that every plugin gets; it
 * registers only what it lists in `provides`. Anything else is a startup error naming the plugin and the token, so a
 * plugin's dependencies are the ones it declares and the lifecycle order follows them (Fastify's encapsulation, by
 * construction).
 */
import type { NamedPlugin } from "../plugin-order";
import type { Token } from "../contracts/token";
import { StartupError } from "../errors";
import type { ComponentRegistry } from "./component-registry";

export class PluginComponents implements ComponentRegistry {
  private readonly resolvable: ReadonlySet<Token<unknown>>;
  private readonly provided: ReadonlySet<Token<unknown>>;

  /** `granted`: the kernel's components any plugin may resolve undeclared (configuration, logger, kernel info). */
  constructor(
    private readonly registry: ComponentRegistry,
    private readonly plugin: NamedPlugin,
    granted: readonly Token<unknown>[],
  ) {
    const { requires = [], provides = [] } = plugin.instance;
    this.provided = new Set(provides);
    this.resolvable = new Set([...granted, ...provides, ...requires.map((requirement) => (typeof requirement === "string" ? requirement : requirement.optional))]);
  }

  register<T>(token: Token<T>, provider: { useValue: T }): void {
    if (!this.provided.has(token)) throw new StartupError(`Plugin ${this.plugin.name} registers '${token}', which it does not list in provides: declare it there`);
    this.registry.register(token, provider);
  }

  get generation(): number {
    return this.registry.generation;
  }

  isRegistered(token: Token<unknown>): boolean {
    return this.registry.isRegistered(this.declared(token));
  }

  resolve<T>(token: Token<T>): T {
    return this.registry.resolve(this.declared(token));
  }

  resolveOptional<T>(token: Token<T>): T | undefined {
    return this.registry.resolveOptional(this.declared(token));
  }

  resolveAll<T>(token: Token<T>): T[] {
    return this.registry.resolveAll(this.declared(token));
  }

  private declared<T>(token: Token<T>): Token<T> {
    if (!this.resolvable.has(token)) throw new StartupError(`Plugin ${this.plugin.name} resolves '${token}', which it does not list in requires: declare it there (optional(token) when it may be missing)`);
    return token;
  }
}
