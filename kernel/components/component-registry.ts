/**
 * The components plugins share, by typed token: what the kernel provides (configuration, logger, kernel info,
 * JSON renderer, peer transport) and what plugins register in `configure` (the contracts they provide).
 * tsyringe's container holds them and creates the classes descriptors name.
 */
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import type { Token } from "../contracts/token";

export interface ComponentRegistry {
  /** Adds `useValue` under `token`; a token may hold several (resolveAll), `resolve` answers the last. */
  register<T>(token: Token<T>, provider: { useValue: T }): void;
  /**
   * A number that changes with every registration: a component resolved on every request can be kept while it stays
   * the same, since resolving from the container costs a resolution context each time.
   */
  readonly generation: number;
  isRegistered(token: Token<unknown>): boolean;
  /** The component registered last under `token`; throws naming the token when there is none. */
  resolve<T>(token: Token<T>): T;
  /** The component, or undefined when no plugin provides it (an optional dependency). */
  resolveOptional<T>(token: Token<T>): T | undefined;
  /** Every component registered under `token`, in registration order; none is an empty list. */
  resolveAll<T>(token: Token<T>): T[];
}

/** The kernel's registry of every component; each plugin sees it through a view of its own (plugin-components). */
export class ComponentContainer implements ComponentRegistry {
  private readonly container: DependencyContainer = rootContainer.createChildContainer();
  private registrations = 0;

  register<T>(token: Token<T>, provider: { useValue: T }): void {
    this.container.register(token, provider);
    this.registrations++;
  }

  get generation(): number {
    return this.registrations;
  }

  isRegistered(token: Token<unknown>): boolean {
    return this.container.isRegistered(token, true);
  }

  resolve<T>(token: Token<T>): T {
    if (!this.isRegistered(token)) throw new Error(`No component is registered as '${token}'`);
    return this.container.resolve<T>(token);
  }

  resolveOptional<T>(token: Token<T>): T | undefined {
    return this.isRegistered(token) ? this.container.resolve<T>(token) : undefined;
  }

  resolveAll<T>(token: Token<T>): T[] {
    return this.isRegistered(token) ? this.container.resolveAll<T>(token) : [];
  }

  /** An instance of a class a descriptor names. */
  create<T>(type: new () => T): T {
    return this.container.resolve(type);
  }
}
