/** DescribeAcls: the bindings matching a filter, grouped by resource pattern; SECURITY_DISABLED without an authorizer. */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { DescribeAcls } from "../../kafka-protocol/messages/describe-acls";
import type { AclBinding } from "../acl/acl-binding";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";
import { NO_AUTHORIZER, filterOf } from "./acl-requests";

export function describeAclsHandler({ acls }: BrokerServices): RegisteredHandler {
  return defineHandler(DescribeAcls, (request) => {
    if (!acls) return { errorCode: ErrorCode.SECURITY_DISABLED, errorMessage: NO_AUTHORIZER, resources: [] };
    const filter = filterOf(request);
    if (typeof filter === "string") return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: filter, resources: [] };
    return { errorCode: ErrorCode.NONE, errorMessage: null, resources: byResource(acls.matching(filter)) };
  });
}

function byResource(bindings: readonly AclBinding[]) {
  const resources = new Map<string, { resourceType: number; resourceName: string; patternType: number; acls: { principal: string; host: string; operation: number; permissionType: number }[] }>();
  for (const binding of bindings) {
    const key = JSON.stringify([binding.resourceType, binding.resourceName, binding.patternType]);
    let resource = resources.get(key);
    if (!resource) {
      resource = { resourceType: binding.resourceType, resourceName: binding.resourceName, patternType: binding.patternType, acls: [] };
      resources.set(key, resource);
    }
    resource.acls.push({ principal: binding.principal, host: binding.host, operation: binding.operation, permissionType: binding.permission });
  }
  return [...resources.values()];
}
