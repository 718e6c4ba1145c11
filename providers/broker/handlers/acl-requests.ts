/** What the ACL APIs share: the answer without an authorizer, and their filters and bindings as the ACL model holds them. */
import { AclPermission, type AclBinding, type AclBindingFilter, invalidBindingReason, PatternType, ResourceType, AclOperation, patternTypeName } from "../acl/acl-binding";

export const NO_AUTHORIZER = "No Authorizer is configured on the broker (set broker.authorizer, or secure the listener)";

interface FilterFields {
  resourceTypeFilter: number;
  resourceNameFilter: string | null;
  patternTypeFilter: number;
  principalFilter: string | null;
  hostFilter: string | null;
  operation: number;
  permissionType: number;
}

const within = (table: Record<string, number>, code: number) => Object.values(table).includes(code);

/** The filter, or why it is invalid. */
export function filterOf(fields: FilterFields): AclBindingFilter | string {
  if (!within(ResourceType, fields.resourceTypeFilter)) return `unknown resource type ${fields.resourceTypeFilter}`;
  if (!within(PatternType, fields.patternTypeFilter)) return `unknown pattern type ${fields.patternTypeFilter}`;
  if (!within(AclOperation, fields.operation)) return `unknown operation ${fields.operation}`;
  if (!within(AclPermission, fields.permissionType)) return `unknown permission type ${fields.permissionType}`;
  if (fields.patternTypeFilter === PatternType.MATCH && fields.resourceNameFilter === null) return `pattern type ${patternTypeName(PatternType.MATCH)} needs a resource name`;
  return {
    resourceType: fields.resourceTypeFilter,
    resourceName: fields.resourceNameFilter,
    patternType: fields.patternTypeFilter,
    principal: fields.principalFilter,
    host: fields.hostFilter,
    operation: fields.operation,
    permission: fields.permissionType,
  };
}

interface CreationFields {
  resourceType: number;
  resourceName: string;
  resourcePatternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}

/** The binding a creation asks for, or why it cannot be kept. */
export function bindingOf(creation: CreationFields): AclBinding | string {
  const candidate = {
    resourceType: creation.resourceType,
    resourceName: creation.resourceName,
    patternType: creation.resourcePatternType,
    principal: creation.principal,
    host: creation.host,
    operation: creation.operation,
    permission: creation.permissionType,
  };
  return invalidBindingReason(candidate) ?? (candidate as AclBinding);
}
