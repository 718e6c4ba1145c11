/** What the per-API authorization rules share: the services they consult, and small helpers to narrow requests. */
import type { AnyAuthorizationRule, AuthorizationRule, RequestContext } from "../handlers/api-handler";
import type { ApiSpec } from "../../kafka-protocol/schema";
import type { AclAuthorizer, Requester } from "./acl-authorizer";

export interface RuleServices {
  readonly authorizer: AclAuthorizer;
  /** Whether a topic exists (Metadata tells unknown topics it may not create apart). */
  topicExists(name: string): boolean;
  /** The broker creates topics that Metadata asks for. */
  readonly autoCreateTopics: boolean;
}

/** An API's name paired with its rule, typed by its declaration. */
export function ruleOf<A extends ApiSpec>(spec: A, rule: AuthorizationRule<A>): [string, AnyAuthorizationRule] {
  return [spec.name, rule];
}

/** The requester of a request, as ACLs name it: its principal and its address without Kafka's leading "/". */
export function requesterOf(context: RequestContext): Requester {
  return { principal: context.principal, host: context.clientHost.replace(/^\//, "") };
}

/** Splits items into those `allowed` accepts and the rest, each in order. */
export function splitBy<T>(items: readonly T[], allowed: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (allowed(item) ? yes : no).push(item);
  return [yes, no];
}

/** A request refused whole: none of it is served, and `answer` is the response. */
export function refusedWith<R>(answer: R) {
  return { request: null, complete: () => answer };
}

/** A request served as it came. */
export function servedWhole<R>(request: R) {
  return { request, complete: <S>(response: S) => response };
}

/** The completion that answers the refused part's entries after the served part's, in the response's array `key`. */
export function appendingTo<R, K extends keyof R>(key: K, refused: R[K]): (served: R | null) => R | null {
  return (served) => served && { ...served, [key]: [...(served[key] as unknown[]), ...(refused as unknown[])] };
}
