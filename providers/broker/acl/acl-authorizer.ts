/**
 * Decides what a principal may do, as Kafka's StandardAuthorizer does: super users may do anything; otherwise the
 * bindings whose pattern covers the resource (its literal name, the literal `*`, or a prefix of the name) and whose
 * principal (or `User:*`) and host (or `*`) match decide. A DENY of the operation (or of ALL) wins; an ALLOW of it
 * (or of ALL, or of READ, WRITE, DELETE or ALTER for DESCRIBE, of ALTER_CONFIGS for DESCRIBE_CONFIGS) grants it.
 * A resource no binding covers is open only with `allowEveryoneIfNoAclFound`.
 */
import { AclOperation, AclPermission, type AclBinding, type AclOperationCode, PatternType, type ResourceTypeCode, WILDCARD, WILDCARD_PRINCIPAL } from "./acl-binding";

/** Plain data: it crosses into the broker's worker thread. */
export interface AuthorizerSettings {
  /** Principals allowed everything (`User:admin`). */
  superUsers: string[];
  /** Open a resource no ACL covers to everyone (Kafka's allow.everyone.if.no.acl.found). */
  allowEveryoneIfNoAclFound: boolean;
}

/** Who asks: the authenticated principal and the address it connects from (without Kafka's leading "/"). */
export interface Requester {
  readonly principal: string;
  readonly host: string;
}

export interface AclSource {
  /** Every binding in force, of one resource type. */
  bindingsOf(resourceType: ResourceTypeCode): readonly AclBinding[];
}

const IMPLIED_BY: ReadonlyMap<AclOperationCode, readonly AclOperationCode[]> = new Map([
  [AclOperation.DESCRIBE, [AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER]],
  [AclOperation.DESCRIBE_CONFIGS, [AclOperation.ALTER_CONFIGS]],
]);

export class AclAuthorizer {
  private readonly superUsers: ReadonlySet<string>;

  constructor(
    private readonly settings: AuthorizerSettings,
    private readonly acls: AclSource,
  ) {
    this.superUsers = new Set(settings.superUsers);
  }

  isSuperUser(principal: string): boolean {
    return this.superUsers.has(principal);
  }

  authorize(who: Requester, operation: AclOperationCode, resourceType: ResourceTypeCode, name: string): boolean {
    if (this.isSuperUser(who.principal)) return true;
    const covering = this.acls.bindingsOf(resourceType).filter((binding) => covers(binding, name));
    if (covering.length === 0) return this.settings.allowEveryoneIfNoAclFound;
    const applying = covering.filter((binding) => appliesTo(binding, who));
    if (applying.some((binding) => binding.permission === AclPermission.DENY && (binding.operation === operation || binding.operation === AclOperation.ALL))) return false;
    const granting = [operation, AclOperation.ALL, ...(IMPLIED_BY.get(operation) ?? [])];
    return applying.some((binding) => binding.permission === AclPermission.ALLOW && granting.includes(binding.operation));
  }

  /**
   * Whether some resource of the type allows the operation (Kafka's authorizeByResourceType): an ALLOW binding whose
   * pattern no DENY covers whole. InitProducerId without a transactional id asks it of WRITE on topics (KIP-679).
   */
  authorizeAny(who: Requester, operation: AclOperationCode, resourceType: ResourceTypeCode): boolean {
    if (this.isSuperUser(who.principal)) return true;
    const all = this.acls.bindingsOf(resourceType);
    if (all.length === 0) return this.settings.allowEveryoneIfNoAclFound;
    const applying = all.filter((binding) => appliesTo(binding, who) && (binding.operation === operation || binding.operation === AclOperation.ALL));
    const denied = applying.filter((binding) => binding.permission === AclPermission.DENY);
    const deniedWhole = (allowed: AclBinding) =>
      denied.some((deny) => covers(deny, allowed.resourceName) && (deny.patternType === PatternType.PREFIXED || deny.resourceName === WILDCARD || allowed.patternType === PatternType.LITERAL));
    return applying.some((binding) => binding.permission === AclPermission.ALLOW && !deniedWhole(binding));
  }
}

/** Whether the binding's resource pattern applies to a resource of that name. */
function covers(binding: AclBinding, name: string): boolean {
  if (binding.patternType === PatternType.PREFIXED) return name.startsWith(binding.resourceName);
  return binding.resourceName === WILDCARD || binding.resourceName === name;
}

function appliesTo(binding: AclBinding, who: Requester): boolean {
  return (binding.principal === who.principal || binding.principal === WILDCARD_PRINCIPAL) && (binding.host === WILDCARD || binding.host === who.host);
}
