/**
 * Kafka's ACL vocabulary, with its wire codes: resource types, pattern types, operations and permissions, and the
 * binding of one principal's permission on a resource pattern. Filters (DescribeAcls, DeleteAcls) use the same
 * shape with ANY (and MATCH) in place of values.
 */

/** Delegation tokens and users are Kafka's too; this broker issues no tokens, so no ACL names them (filters may). */
export const ResourceType = { ANY: 1, TOPIC: 2, GROUP: 3, CLUSTER: 4, TRANSACTIONAL_ID: 5, DELEGATION_TOKEN: 6, USER: 7 } as const;
export const PatternType = { ANY: 1, MATCH: 2, LITERAL: 3, PREFIXED: 4 } as const;
export const AclOperation = {
  ANY: 1,
  ALL: 2,
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
  IDEMPOTENT_WRITE: 12,
  CREATE_TOKENS: 13,
  DESCRIBE_TOKENS: 14,
} as const;
export const AclPermission = { ANY: 1, DENY: 2, ALLOW: 3 } as const;

export type ResourceTypeCode = (typeof ResourceType)[keyof typeof ResourceType];
export type PatternTypeCode = (typeof PatternType)[keyof typeof PatternType];
export type AclOperationCode = (typeof AclOperation)[keyof typeof AclOperation];
export type AclPermissionCode = (typeof AclPermission)[keyof typeof AclPermission];

/** The one name of the cluster resource, as Kafka's. */
export const CLUSTER_NAME = "kafka-cluster";
/** A literal resource name or a principal's name that stands for all of them. */
export const WILDCARD = "*";
export const WILDCARD_PRINCIPAL = "User:*";
/** Who a connection is when nothing authenticated it (PLAINTEXT, or TLS without a client certificate). */
export const ANONYMOUS_PRINCIPAL = "User:ANONYMOUS";

export interface AclBinding {
  readonly resourceType: ResourceTypeCode;
  readonly resourceName: string;
  readonly patternType: typeof PatternType.LITERAL | typeof PatternType.PREFIXED;
  /** `User:alice`, or `User:*` for every principal. */
  readonly principal: string;
  /** An address, or `*` for every host. */
  readonly host: string;
  readonly operation: AclOperationCode;
  readonly permission: typeof AclPermission.ALLOW | typeof AclPermission.DENY;
}

/** What DescribeAcls and DeleteAcls match bindings against; null matches anything. */
export interface AclBindingFilter {
  readonly resourceType: number;
  readonly resourceName: string | null;
  readonly patternType: number;
  readonly principal: string | null;
  readonly host: string | null;
  readonly operation: number;
  readonly permission: number;
}

/** Operations each resource type knows, as Kafka's AclEntry.supportedOperations. */
const SUPPORTED_OPERATIONS: ReadonlyMap<number, readonly AclOperationCode[]> = new Map<number, AclOperationCode[]>([
  [ResourceType.TOPIC, [AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS]],
  [ResourceType.GROUP, [AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE]],
  [
    ResourceType.CLUSTER,
    [AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER, AclOperation.DESCRIBE],
  ],
  [ResourceType.TRANSACTIONAL_ID, [AclOperation.DESCRIBE, AclOperation.WRITE]],
]);

const nameOf = (table: Record<string, number>, code: number) => Object.entries(table).find(([, value]) => value === code)?.[0] ?? `code ${code}`;
export const resourceTypeName = (code: number) => nameOf(ResourceType, code);
export const operationName = (code: number) => nameOf(AclOperation, code);
export const patternTypeName = (code: number) => nameOf(PatternType, code);
export const permissionName = (code: number) => nameOf(AclPermission, code);

/** Why a binding cannot be kept (Kafka refuses the same ones), or undefined when it is valid. */
export function invalidBindingReason(binding: {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permission: number;
}): string | undefined {
  const operations = SUPPORTED_OPERATIONS.get(binding.resourceType);
  if (!operations) return `resource type ${resourceTypeName(binding.resourceType)} cannot carry ACLs`;
  if (binding.patternType !== PatternType.LITERAL && binding.patternType !== PatternType.PREFIXED) return `pattern type ${patternTypeName(binding.patternType)} is only for filters`;
  if (binding.resourceName === "") return "the resource name is empty";
  if (binding.resourceType === ResourceType.CLUSTER && (binding.resourceName !== CLUSTER_NAME || binding.patternType !== PatternType.LITERAL)) return `the cluster resource is named ${CLUSTER_NAME} (literal)`;
  if (!/^[A-Za-z]+:.+$/.test(binding.principal)) return `principal '${binding.principal}' is not Type:name (User:alice)`;
  if (binding.host === "") return "the host is empty (* is every host)";
  if (binding.operation !== AclOperation.ALL && !operations.includes(binding.operation as AclOperationCode)) {
    return `operation ${operationName(binding.operation)} does not apply to ${resourceTypeName(binding.resourceType)}`;
  }
  if (binding.permission !== AclPermission.ALLOW && binding.permission !== AclPermission.DENY) return `permission ${permissionName(binding.permission)} is only for filters`;
  return undefined;
}

/** Whether `binding` matches `filter`, as Kafka's AclBindingFilter.matches (MATCH: the patterns that would apply to the name). */
export function filterMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  if (filter.resourceType !== ResourceType.ANY && filter.resourceType !== binding.resourceType) return false;
  if (!patternMatches(filter, binding)) return false;
  if (filter.principal !== null && filter.principal !== binding.principal) return false;
  if (filter.host !== null && filter.host !== binding.host) return false;
  if (filter.operation !== AclOperation.ANY && filter.operation !== binding.operation) return false;
  return filter.permission === AclPermission.ANY || filter.permission === binding.permission;
}

function patternMatches(filter: AclBindingFilter, binding: AclBinding): boolean {
  if (filter.patternType === PatternType.MATCH) {
    if (filter.resourceName === null) return true;
    return binding.patternType === PatternType.PREFIXED ? filter.resourceName.startsWith(binding.resourceName) : binding.resourceName === filter.resourceName || binding.resourceName === WILDCARD;
  }
  if (filter.patternType !== PatternType.ANY && filter.patternType !== binding.patternType) return false;
  return filter.resourceName === null || filter.resourceName === binding.resourceName;
}

/** Same resource pattern, principal, host, operation and permission. */
export function sameBinding(a: AclBinding, b: AclBinding): boolean {
  return (
    a.resourceType === b.resourceType &&
    a.resourceName === b.resourceName &&
    a.patternType === b.patternType &&
    a.principal === b.principal &&
    a.host === b.host &&
    a.operation === b.operation &&
    a.permission === b.permission
  );
}

/** `ALLOW User:alice READ TOPIC:orders PREFIXED FROM 10.0.0.5`: the form `broker.acls` is written in. */
export function describeBinding(binding: AclBinding): string {
  const pattern = binding.patternType === PatternType.PREFIXED ? " PREFIXED" : "";
  const host = binding.host === WILDCARD ? "" : ` FROM ${binding.host}`;
  return `${permissionName(binding.permission)} ${binding.principal} ${operationName(binding.operation)} ${resourceTypeName(binding.resourceType)}:${binding.resourceName}${pattern}${host}`;
}
